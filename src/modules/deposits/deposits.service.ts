import { refusalsAs } from '../../platform/db/base-model';
import { idempotent } from '../../platform/db/idempotency';
import type { PageRequest } from '../../platform/db/keyset';
import type { Db, DbOrTrx } from '../../platform/db/knex';
import { transactionWithRetry } from '../../platform/db/retry';
import { BusinessRuleError, ConflictError, NotFoundError } from '../../platform/errors';
import { daysBetween } from '../../platform/http/schemas';
import type { DepositKind } from '../../../workflows/contracts/deposits';
import type { BookingsService } from '../bookings';
import type { HotelsService } from '../hotels';
import type { MinibarService } from '../minibar';
import type { NotificationsService } from '../notifications';
import type { PaymentsConfig, PaymentsService } from '../payments';
import { formatMoney, parseMoney } from '../../platform/money';
import { announceDeposit, depositWorkflows } from './deposits.effects';
import { depositsRepository, refundsRepository } from './deposits.repository';
import { canCancel, canRelease, depositKindFor, depositMessages, refundable, releaseSplit } from './deposits.rules';
import type { Deduction, Deposit } from './deposits.types';

export interface DepositsDependencies {
  hotels: Pick<HotelsService, 'find'>;
  bookings: Pick<BookingsService, 'get'>;
  payments: Pick<PaymentsService, 'settingsOf' | 'gateways' | 'provider' | 'moneyConfig'>;
  minibar: Pick<MinibarService, 'consumptionsForBooking'>;
  notifications: Pick<NotificationsService, 'notify'>;
}

export interface DepositInput {
  kind: DepositKind;
  amount: string;
  return_url?: string;
  guest_email?: string;
}

export interface Actor {
  userId: string | null;
  hotelSlug: string;
}

type StayDates = { check_in: string | null; check_out: string | null };

function nightsOf(booking: StayDates): number {
  return booking.check_in && booking.check_out ? daysBetween(booking.check_in, booking.check_out) : 0;
}

/** The deposits staff take, release and refund at the desk; the provider is reached only by the workflow. */
export function createDepositsService(db: Db, config: PaymentsConfig, deps: DepositsDependencies) {
  const { provider } = deps.payments;
  const timers = config.paymentTimers;

  async function lockLatest(trx: DbOrTrx, hotelId: string, bookingId: string): Promise<Deposit> {
    const deposit = await depositsRepository.latestForBooking(trx, hotelId, bookingId, { forUpdate: true });
    if (!deposit) throw new NotFoundError(depositMessages.notFound);
    if (deposit.pending_operation) throw new ConflictError(depositMessages.operationPending, 'operation_pending');
    return deposit;
  }

  async function present(conn: DbOrTrx, deposit: Deposit) {
    return { ...deposit, refunds: await refundsRepository.forDeposit(conn, deposit.hotel_id, deposit.id) };
  }

  /** Records a change of the deposit and shows it to the desk, in the caller's transaction. */
  async function change(trx: DbOrTrx, deposit: Deposit, changes: Partial<Deposit>): Promise<Deposit> {
    const updated = await depositsRepository.update(trx, deposit.hotel_id, deposit.id, changes);
    await announceDeposit(trx, updated);
    return updated;
  }

  async function returnUrlFor(hotelId: string, bookingId: string, requested: string | undefined, conn: DbOrTrx) {
    await deps.payments.gateways.assertPublicReturnUrl(requested);
    const gateway = await provider.gatewayOf(hotelId, conn);
    if (!gateway) throw new BusinessRuleError(depositMessages.noGateway, [], 'no_gateway');
    return requested ?? gateway.returnUrl ?? `${config.appUrl}/bookings/${bookingId}`;
  }

  return {
    change,
    present,

    history: (hotelId: string, page: PageRequest) => depositsRepository.history(db, hotelId, page),

    /** The booking's latest `limit` deposits and their latest `limit` refunds, newest first (its timeline). */
    async ofBooking(hotelId: string, bookingId: string, limit: number) {
      const deposits = await depositsRepository.ofBooking(db, hotelId, bookingId, limit);
      const ids = deposits.map((deposit) => deposit.id);
      return { deposits, refunds: ids.length ? await refundsRepository.ofDeposits(db, hotelId, ids, limit) : [] };
    },

    /** The booking's latest deposit with its refunds: what the desk polls while the guest pays. */
    async current(hotelId: string, bookingId: string) {
      const deposit = await depositsRepository.latestForBooking(db, hotelId, bookingId);
      if (!deposit) throw new NotFoundError(depositMessages.notFound);
      return present(db, deposit);
    },

    /** Idempotent with `Idempotency-Key`. A card deposit is created at the provider by its workflow, right after. */
    async create(hotelId: string, bookingId: string, input: DepositInput, actor: Actor, idempotencyKey?: string) {
      const booking = await deps.bookings.get(hotelId, bookingId);
      if (booking.status === 'cancelled' || booking.status === 'checked_out')
        throw new BusinessRuleError(depositMessages.bookingClosed, [], 'booking_closed');
      return transactionWithRetry(db, (trx) =>
        idempotent(
          trx,
          { hotelId, scope: `deposits.create:${bookingId}`, key: idempotencyKey, body: input },
          async () => {
            const settings = await deps.payments.settingsOf(hotelId, trx);
            const kind = depositKindFor(input.kind, nightsOf(booking), settings);
            const hotel = await deps.hotels.find(hotelId, trx);
            const cash = kind === 'cash';
            const deposit = await refusalsAs(
              { unique: { deposits_one_open_per_booking: () => new ConflictError(depositMessages.alreadyOpen) } },
              async () =>
                depositsRepository.insert(trx, hotelId, {
                  booking_id: bookingId,
                  kind,
                  status: cash ? 'paid_cash' : 'hold_created',
                  amount: input.amount,
                  currency: hotel!.currency,
                  return_url: cash ? null : await returnUrlFor(hotelId, bookingId, input.return_url, trx),
                  guest_email: input.guest_email ?? booking.guest_email,
                  created_by: actor.userId,
                  ...(cash && { confirmed_at: new Date() }),
                }),
            );
            await announceDeposit(trx, deposit);
            await depositWorkflows.start(trx, deposit, actor.hotelSlug, timers);
            return { status: 201, body: await present(trx, deposit) };
          },
        ),
      );
    },

    /** Cancels a deposit the guest has not paid yet, or a cash one (handed back at the desk). */
    async cancel(hotelId: string, bookingId: string, actor: Actor) {
      return transactionWithRetry(db, async (trx) => {
        const deposit = await lockLatest(trx, hotelId, bookingId);
        if (!canCancel(deposit)) throw new BusinessRuleError(depositMessages.cannotCancel(deposit.status));
        const cancelled = await change(trx, deposit, {
          status: 'cancelled',
          cancel_reason: 'cancelled_by_staff',
          closed_at: new Date(),
        });
        // The workflow keeps watching a card payment the guest might still complete, and hands that money back.
        await depositWorkflows.command(trx, cancelled, actor.hotelSlug, timers, { operation: 'cancel' });
        return present(trx, cancelled);
      });
    },

    /**
     * Releases the deposit, keeping `items` (deductions): recorded here, carried out at the provider by the workflow,
     * which then e-mails the guest the statement. Answers the deposit with `pending_operation: release`.
     */
    async release(hotelId: string, bookingId: string, items: Deduction[], actor: Actor) {
      const booking = await deps.bookings.get(hotelId, bookingId);
      return transactionWithRetry(db, async (trx) => {
        const deposit = await lockLatest(trx, hotelId, bookingId);
        if (!canRelease(deposit)) throw new BusinessRuleError(depositMessages.cannotRelease(deposit.status));
        const settings = await deps.payments.settingsOf(hotelId, trx);
        if (settings.release_requires_checkout && booking.status !== 'checked_out')
          throw new BusinessRuleError(depositMessages.releaseNeedsCheckout, [], 'checkout_required');
        if (!releaseSplit(deposit, items))
          throw new BusinessRuleError(depositMessages.deductionsTooLarge, [], 'deductions_too_large');
        const deductions = items.map(({ name, amount }) => ({ name, amount: formatMoney(parseMoney(amount)) }));
        const releasing = await change(trx, deposit, { pending_operation: 'release', deductions });
        await depositWorkflows.command(trx, releasing, actor.hotelSlug, timers, { operation: 'release' });
        return present(trx, releasing);
      });
    },

    /** A full (no amount) or partial refund of a charged deposit; idempotent with `Idempotency-Key`. */
    async refund(hotelId: string, bookingId: string, amount: string | undefined, actor: Actor, key?: string) {
      return transactionWithRetry(db, (trx) =>
        idempotent(trx, { hotelId, scope: `deposits.refund:${bookingId}`, key, body: { amount } }, async () => {
          const deposit = await lockLatest(trx, hotelId, bookingId);
          const available = refundable(deposit, await refundsRepository.pendingCents(trx, hotelId, deposit.id));
          if (available <= 0n)
            throw new BusinessRuleError(
              deposit.kind === 'yookassa_charge' ? depositMessages.nothingToRefund : depositMessages.notRefundable,
              [],
              'not_refundable',
            );
          const cents = amount === undefined ? available : parseMoney(amount);
          if (cents > available) throw new BusinessRuleError(depositMessages.refundTooLarge, [], 'refund_too_large');
          const refund = await refundsRepository.insert(trx, hotelId, {
            deposit_id: deposit.id,
            amount: formatMoney(cents),
            created_by: actor.userId,
          });
          const refunding = await change(trx, deposit, { pending_operation: 'refund' });
          await depositWorkflows.command(trx, refunding, actor.hotelSlug, timers, {
            operation: 'refund',
            refundId: refund.id,
          });
          return { status: 202, body: await present(trx, refunding) };
        }),
      );
    },

    /**
     * The provider says a payment changed (its notification, never believed): wakes the workflow of the deposit that
     * follows it, which re-reads it; one re-read for the notifications of a window. False when no deposit follows it.
     */
    async providerPaymentChanged(providerPaymentId: string): Promise<boolean> {
      const deposit = await depositsRepository.byProviderPayment(db, providerPaymentId);
      if (!deposit) return false;
      const slug = (await deps.hotels.find(deposit.hotel_id))!.slug;
      await depositWorkflows.providerChanged(db, deposit, slug, timers, config.yookassa.notificationCoalesceMs);
      return true;
    },

    /** What the stay took from the minibar: the desk turns it into deductions at release. */
    async minibar(hotelId: string, bookingId: string) {
      await deps.bookings.get(hotelId, bookingId);
      const items = await deps.minibar.consumptionsForBooking(hotelId, bookingId);
      const total = items.reduce((sum, item) => sum + parseMoney(item.amount), 0n);
      return { items, total: formatMoney(total) };
    },
  };
}

export type DepositsService = ReturnType<typeof createDepositsService>;
