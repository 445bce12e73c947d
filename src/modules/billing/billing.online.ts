import { idempotent } from '../../platform/db/idempotency';
import type { Db } from '../../platform/db/knex';
import { transactionWithRetry } from '../../platform/db/retry';
import { BusinessRuleError, NotFoundError, refusesForGood, type AppError } from '../../platform/errors';
import type { ProviderPaymentOutcome } from '../../../workflows/contracts/payments';
import { formatMoney, parseMoney } from '../../platform/money';
import type { BookingsService } from '../bookings';
import type { HotelsService } from '../hotels';
import type { NotificationsService } from '../notifications';
import { amountOf, gatewayMessages, receiptFor, type PaymentsService, type PaymentsConfig } from '../payments';
import { onlinePaymentWorkflows } from './billing.effects';
import { onlinePaymentsRepository } from './billing.repository';
import type { OnlinePayment } from './billing.types';

export const onlinePaymentMessages = {
  notFound: 'Онлайн-платёж не найден',
  nothingDue: 'По бронированию нечего оплачивать',
  bookingClosed: 'Нельзя оплатить отменённое или завершённое бронирование',
};

/** Who asked: staff (their id) or the service itself (null), on the hotel of that slug. */
export interface Actor {
  userId: string | null;
  hotelSlug: string;
}

export interface OnlinePaymentsDependencies {
  hotels: Pick<HotelsService, 'find'>;
  bookings: Pick<BookingsService, 'get' | 'lifecycle' | 'payments'>;
  payments: Pick<PaymentsService, 'settingsOf' | 'gateways' | 'provider' | 'moneyConfig'>;
  notifications: Pick<NotificationsService, 'notify'>;
}

export interface OnlinePaymentInput {
  amount?: string;
  return_url?: string;
}

/**
 * Online payment of a booking: created at the provider by its workflow, followed until paid, and then a row of the
 * booking's payment ledger, recorded exactly once (the row and the link to it are written in one transaction).
 */
export function createOnlinePayments(db: Db, config: PaymentsConfig, deps: OnlinePaymentsDependencies) {
  const { provider } = deps.payments;
  const timers = config.paymentTimers;

  async function ttlMs(hotelId: string): Promise<number> {
    return timers.onlinePaymentTtlMs ?? (await deps.payments.settingsOf(hotelId)).online_payment_ttl_minutes * 60_000;
  }

  /** The online payment; one that is gone is a NotFoundError (for its workflow's steps, a failure not retried). */
  async function load(hotelId: string, id: string): Promise<OnlinePayment> {
    const payment = await onlinePaymentsRepository.find(db, hotelId, id);
    if (!payment) throw new NotFoundError(onlinePaymentMessages.notFound);
    return payment;
  }

  /**
   * Moves the booking behind the payment (confirms or cancels it) unless staff moved it first: a move refused because
   * the booking is no longer an inquiry (confirmed, cancelled or moved on meanwhile) is not the payment's error, which
   * is recorded either way.
   */
  async function moveInquiry(hotelId: string, bookingId: string, move: () => Promise<unknown>): Promise<void> {
    try {
      await move();
    } catch (error) {
      if (!(error instanceof BusinessRuleError)) throw error;
      if ((await deps.bookings.get(hotelId, bookingId)).status === 'inquiry') throw error;
    }
  }

  /**
   * The provider took the money but the booking refuses its payment row (the sum of its payments would leave what the
   * column holds): retrying cannot change that, so the step fails for good, and staff are told to record it by hand.
   */
  async function refusedAfterPaid(payment: OnlinePayment, paidCents: bigint, refusal: AppError): Promise<never> {
    await db.transaction((trx) =>
      deps.notifications.notify(trx, payment.hotel_id, {
        type: 'payment_received',
        title: `Онлайн-оплата ${formatMoney(paidCents)} ${payment.currency} получена, но не записана`,
        body: `${refusal.message}. Запишите оплату в бронирование вручную (YooKassa ${payment.provider_payment_id}).`,
        dedupeKey: `online-payment-unrecorded:${payment.id}`,
        data: { booking_id: payment.booking_id, online_payment_id: payment.id },
      }),
    );
    throw refusal;
  }

  async function settle(payment: OnlinePayment, paidCents: bigint, slug: string): Promise<void> {
    let recorded: boolean;
    try {
      recorded = await recordPaid(payment, paidCents);
    } catch (error) {
      if (!refusesForGood(error)) throw error;
      return refusedAfterPaid(payment, paidCents, error);
    }
    if (!recorded) return;
    const gateway = await deps.payments.gateways.activeYooKassa(payment.hotel_id);
    const booking = await deps.bookings.get(payment.hotel_id, payment.booking_id);
    if (gateway?.autoConfirmOnPayment && booking.source === 'online' && booking.status === 'inquiry')
      await moveInquiry(payment.hotel_id, booking.id, () =>
        deps.bookings.lifecycle.confirm(payment.hotel_id, booking.id, slug, 'online_payment'),
      );
  }

  /** The ledger row of a paid online payment, once; false when it was recorded before. */
  function recordPaid(payment: OnlinePayment, paidCents: bigint): Promise<boolean> {
    return db.transaction(async (trx) => {
      const current = await onlinePaymentsRepository.find(trx, payment.hotel_id, payment.id, { forUpdate: true });
      if (current!.ledger_payment_id) return false;
      const { payment: row } = await deps.bookings.payments.recordWithin(
        trx,
        payment.hotel_id,
        payment.booking_id,
        { amount: formatMoney(paidCents), method: 'online', note: `YooKassa ${payment.provider_payment_id}` },
        null,
      );
      await onlinePaymentsRepository.update(trx, payment.hotel_id, payment.id, {
        status: 'succeeded',
        ledger_payment_id: row.id,
      });
      await deps.notifications.notify(trx, payment.hotel_id, {
        type: 'payment_received',
        title: `Онлайн-оплата ${formatMoney(paidCents)} ${payment.currency} получена`,
        body: 'Платёж через YooKassa записан в оплаты бронирования.',
        dedupeKey: `online-payment:${payment.id}`,
        data: { booking_id: payment.booking_id, online_payment_id: payment.id },
      });
      return true;
    });
  }

  async function slugOf(hotelId: string): Promise<string> {
    return (await deps.hotels.find(hotelId))!.slug;
  }

  async function sync(hotelId: string, id: string): Promise<ProviderPaymentOutcome> {
    const payment = await load(hotelId, id);
    if (payment.status !== 'pending' && payment.ledger_payment_id) return 'paid';
    if (!payment.provider_payment_id) return payment.status === 'pending' ? 'awaiting_payment' : 'failed';
    const remote = await provider.client.getPayment(await provider.credentials(hotelId), payment.provider_payment_id);
    if (remote.status === 'succeeded') {
      await settle(payment, parseMoney(remote.amount.value), await slugOf(hotelId));
      return 'paid';
    }
    if (remote.status === 'canceled') {
      if (payment.status === 'pending')
        await onlinePaymentsRepository.update(db, hotelId, id, {
          status: 'canceled',
          cancel_reason: remote.cancellation_details?.reason ?? 'canceled',
        });
      return 'failed';
    }
    return 'awaiting_payment';
  }

  return {
    ttlMs,

    /** One online payment, as its workflow has recorded it so far. */
    find: load,

    async list(hotelId: string, bookingId: string) {
      await deps.bookings.get(hotelId, bookingId);
      return onlinePaymentsRepository.forBooking(db, hotelId, bookingId);
    },

    /**
     * `list` without its check of the booking (found, of this hotel): only for a caller that has read the booking
     * already and so made that check (the timeline); given an unchecked id it answers what the hotel's rows hold.
     */
    ofReadBooking: (hotelId: string, bookingId: string) => onlinePaymentsRepository.forBooking(db, hotelId, bookingId),

    /** Idempotent with `Idempotency-Key`; the amount defaults to the booking's balance. */
    async create(hotelId: string, bookingId: string, input: OnlinePaymentInput, actor: Actor, key?: string) {
      const booking = await deps.bookings.get(hotelId, bookingId);
      if (booking.status === 'cancelled' || booking.status === 'checked_out')
        throw new BusinessRuleError(onlinePaymentMessages.bookingClosed, [], 'booking_closed');
      const cents = input.amount === undefined ? parseMoney(booking.balance) : parseMoney(input.amount);
      if (cents <= 0n) throw new BusinessRuleError(onlinePaymentMessages.nothingDue, [], 'nothing_due');
      await deps.payments.gateways.assertPublicReturnUrl(input.return_url);
      const gateway = await provider.gatewayOf(hotelId);
      if (!gateway) throw new BusinessRuleError(gatewayMessages.noneActive, [], 'no_gateway');
      const hotel = await deps.hotels.find(hotelId);
      const ttl = await ttlMs(hotelId);
      return transactionWithRetry(db, (trx) =>
        idempotent(trx, { hotelId, scope: `online-payments:${bookingId}`, key, body: input }, async () => {
          const payment = await onlinePaymentsRepository.insert(trx, hotelId, {
            booking_id: bookingId,
            amount: formatMoney(cents),
            currency: hotel!.currency,
            return_url: input.return_url ?? gateway.returnUrl ?? `${config.appUrl}/bookings/${bookingId}`,
            created_by: actor.userId,
          });
          await onlinePaymentWorkflows.start(trx, payment, actor.hotelSlug, timers, ttl);
          return { status: 201, body: payment };
        }),
      );
    },

    jobs: {
      async create(hotelId: string, id: string): Promise<boolean> {
        const payment = await load(hotelId, id);
        if (payment.provider_payment_id) return true;
        const booking = await deps.bookings.get(hotelId, payment.booking_id);
        const cents = parseMoney(payment.amount);
        return provider.createPayment(
          hotelId,
          {
            amount: amountOf(cents, payment.currency),
            capture: true,
            description: `Оплата проживания с ${booking.check_in ?? booking.start_at.toISOString().slice(0, 10)}`,
            metadata: { hotel_id: hotelId, online_payment_id: id, booking_id: payment.booking_id },
            confirmation: { type: 'redirect', return_url: payment.return_url! },
            receipt: receiptFor(
              { email: booking.guest_email, phone: booking.guest_phone },
              [{ description: 'Проживание', cents }],
              payment.currency,
            ),
          },
          `booking-payment:${id}`,
          {
            created: (remote) =>
              onlinePaymentsRepository.update(db, hotelId, id, {
                provider_payment_id: remote.id,
                confirmation_url: remote.confirmation?.confirmation_url ?? null,
              }),
            refused: (reason) =>
              onlinePaymentsRepository.update(db, hotelId, id, { status: 'canceled', cancel_reason: reason }),
          },
        );
      },

      sync,

      /** The payer's time is up: a late payment still counts; otherwise an unpaid online booking is cancelled. */
      async expire(hotelId: string, id: string): Promise<ProviderPaymentOutcome> {
        const outcome = await sync(hotelId, id);
        if (outcome !== 'awaiting_payment') return outcome;
        const payment = await load(hotelId, id);
        await onlinePaymentsRepository.update(db, hotelId, id, { status: 'canceled', cancel_reason: 'not_paid' });
        const booking = await deps.bookings.get(hotelId, payment.booking_id);
        if (booking.source === 'online' && booking.status === 'inquiry' && parseMoney(booking.paid_amount) === 0n)
          await moveInquiry(hotelId, booking.id, async () =>
            deps.bookings.lifecycle.cancel(
              hotelId,
              booking.id,
              await slugOf(hotelId),
              'payment_timeout',
              'not_paid_online',
            ),
          );
        return 'failed';
      },
    },
  };
}

export type OnlinePayments = ReturnType<typeof createOnlinePayments>;
