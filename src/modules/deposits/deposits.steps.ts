import { amountOf, isRefusal, receiptFor, type YooKassaPayment } from '../payments';
import type { Db, DbOrTrx } from '../../platform/db/knex';
import { NotFoundError } from '../../platform/errors';
import type { Mailer } from '../../platform/mail';
import type { DepositCommand, DepositStanding } from '../../../workflows/contracts/deposits';
import type { ProviderPaymentOutcome } from '../../../workflows/contracts/payments';
import { parseMoney } from '../../platform/money';
import { depositsRepository, refundsRepository } from './deposits.repository';
import { afterRefund, CLOSED_STATUSES, depositMessages, readProviderPayment, releaseSplit } from './deposits.rules';
import type { DepositsDependencies, DepositsService } from './deposits.service';
import { depositStatement, settledNotice } from './deposits.statement';
import type { Deposit } from './deposits.types';

/**
 * The deposit workflow's steps. Each is safe to run again: provider calls carry idempotence keys made of the deposit's
 * own ids (a retried step never holds, captures or refunds twice), and each records its result only if it is not
 * recorded yet. A deposit or refund that is gone is a NotFoundError, which fails the step for good (the activity
 * boundary); anything else (the provider, the database) is retried.
 */
export function createDepositSteps(db: Db, deposits: DepositsService, deps: DepositsDependencies, mailer?: Mailer) {
  const { provider } = deps.payments;
  const keys = {
    create: (id: string) => `deposit:${id}:create`,
    capture: (id: string) => `deposit:${id}:capture`,
    cancel: (id: string) => `deposit:${id}:cancel`,
    release: (id: string) => `deposit:${id}:release`,
    reverse: (id: string) => `deposit:${id}:reverse`,
    refund: (refundId: string) => `refund:${refundId}`,
  };

  async function load(hotelId: string, depositId: string, conn: DbOrTrx = db, forUpdate = false): Promise<Deposit> {
    const deposit = await depositsRepository.find(conn, hotelId, depositId, { forUpdate });
    if (!deposit) throw new NotFoundError(depositMessages.notFound);
    return deposit;
  }

  /** Applies `changes` to the deposit as it is now (locked), unless `skip` says they are recorded already. */
  async function record(deposit: Deposit, changes: (current: Deposit) => Partial<Deposit> | undefined) {
    return db.transaction(async (trx) => {
      const current = await load(deposit.hotel_id, deposit.id, trx, true);
      const next = changes(current);
      return next ? deposits.change(trx, current, next) : current;
    });
  }

  const standing = (deposit: Deposit): DepositStanding =>
    CLOSED_STATUSES.includes(deposit.status) ? 'closed' : 'open';

  async function paymentOf(deposit: Deposit): Promise<YooKassaPayment> {
    return provider.client.getPayment(await provider.credentials(deposit.hotel_id), deposit.provider_payment_id!);
  }

  /** Records what the provider says; money paid for a deposit cancelled meanwhile goes back to the payer. */
  async function sync(hotelId: string, depositId: string): Promise<ProviderPaymentOutcome> {
    const deposit = await load(hotelId, depositId);
    if (deposit.kind === 'cash') return standing(deposit) === 'open' ? 'paid' : 'failed';
    if (!deposit.provider_payment_id) return deposit.status === 'hold_created' ? 'awaiting_payment' : 'failed';
    const payment = await paymentOf(deposit);
    let reading = readProviderPayment(deposit, payment, new Date());
    await record(deposit, (current) => {
      reading = readProviderPayment(current, payment, new Date());
      return Object.keys(reading.changes).length > 0 ? reading.changes : undefined;
    });
    if (reading.reverse) {
      const credentials = await provider.credentials(hotelId);
      if (reading.reverse === 'cancel_hold')
        await provider.client.cancelPayment(credentials, payment.id, keys.cancel(depositId));
      else
        await provider.client.createRefund(
          credentials,
          { payment_id: payment.id, amount: payment.amount, description: 'Возврат отменённого депозита' },
          keys.reverse(depositId),
        );
    }
    return reading.outcome;
  }

  async function release(deposit: Deposit): Promise<Deposit> {
    const split = releaseSplit(deposit, deposit.deductions)!;
    const credentials = deposit.kind === 'cash' ? undefined : await provider.credentials(deposit.hotel_id);
    const lines = deposit.deductions.map((line) => ({ description: line.name, cents: parseMoney(line.amount) }));
    let refunded = parseMoney(deposit.refunded_amount);
    if (credentials && deposit.status === 'hold_confirmed') {
      if (split.keep > 0n)
        await provider.client.capturePayment(credentials, deposit.provider_payment_id!, keys.capture(deposit.id), {
          amount: amountOf(split.keep, deposit.currency),
          receipt: receiptFor({ email: deposit.guest_email }, lines, deposit.currency),
        });
      else await provider.client.cancelPayment(credentials, deposit.provider_payment_id!, keys.cancel(deposit.id));
    } else if (credentials && split.giveBack > 0n) {
      await provider.client.createRefund(
        credentials,
        {
          payment_id: deposit.provider_payment_id!,
          amount: amountOf(split.giveBack, deposit.currency),
          description: 'Возврат депозита',
        },
        keys.release(deposit.id),
      );
      refunded += split.giveBack;
    }
    return record(deposit, (current) =>
      current.pending_operation === 'release'
        ? {
            status: 'released',
            captured_amount: amountOf(split.keep, deposit.currency).value,
            refunded_amount: amountOf(refunded, deposit.currency).value,
            pending_operation: null,
            closed_at: new Date(),
          }
        : undefined,
    );
  }

  async function refund(deposit: Deposit, refundId: string): Promise<Deposit> {
    const row = await refundsRepository.find(db, deposit.hotel_id, refundId);
    if (!row) throw new NotFoundError(depositMessages.refundNotFound);
    if (row.status !== 'pending') return record(deposit, () => ({ pending_operation: null }));
    const result = await provider.client.createRefund(
      await provider.credentials(deposit.hotel_id),
      { payment_id: deposit.provider_payment_id!, amount: amountOf(parseMoney(row.amount), deposit.currency) },
      keys.refund(refundId),
    );
    return db.transaction(async (trx) => {
      const current = await load(deposit.hotel_id, deposit.id, trx, true);
      const locked = await refundsRepository.find(trx, deposit.hotel_id, refundId, { forUpdate: true });
      if (locked!.status !== 'pending') return current;
      await refundsRepository.update(trx, deposit.hotel_id, refundId, {
        status: 'succeeded',
        provider_refund_id: result.id,
        completed_at: new Date(),
      });
      return deposits.change(trx, current, {
        ...afterRefund(current, parseMoney(row.amount)),
        pending_operation: null,
      });
    });
  }

  /** A refusal by the provider ends the operation without effect: recorded, and the deposit re-read. */
  async function refused(deposit: Deposit, command: DepositCommand, reason: string): Promise<DepositStanding> {
    await db.transaction(async (trx) => {
      const current = await load(deposit.hotel_id, deposit.id, trx, true);
      if (command.refundId)
        await refundsRepository.update(trx, deposit.hotel_id, command.refundId, {
          status: 'failed',
          failure_reason: reason,
          completed_at: new Date(),
        });
      await deposits.change(trx, current, { pending_operation: null });
    });
    await sync(deposit.hotel_id, deposit.id);
    return standing(await load(deposit.hotel_id, deposit.id));
  }

  return {
    /** Creates the payment once; a provider refusal cancels the deposit (the desk sees why). */
    async createPayment(hotelId: string, depositId: string): Promise<boolean> {
      const deposit = await load(hotelId, depositId);
      if (deposit.provider_payment_id || deposit.kind === 'cash') return true;
      const booking = await deps.bookings.get(hotelId, deposit.booking_id);
      const charge = deposit.kind === 'yookassa_charge';
      const cents = parseMoney(deposit.amount);
      const contact = { email: deposit.guest_email, phone: booking.guest_phone };
      return provider.createPayment(
        hotelId,
        {
          amount: amountOf(cents, deposit.currency),
          capture: charge,
          description: `Депозит за проживание с ${booking.check_in ?? booking.start_at.toISOString().slice(0, 10)}`,
          metadata: { hotel_id: hotelId, deposit_id: depositId },
          confirmation: { type: 'redirect', return_url: deposit.return_url! },
          ...(charge && { receipt: receiptFor(contact, [{ description: 'Депозит', cents }], deposit.currency) }),
        },
        keys.create(depositId),
        {
          created: (payment) =>
            record(deposit, (current) =>
              current.provider_payment_id
                ? undefined
                : { provider_payment_id: payment.id, confirmation_url: payment.confirmation?.confirmation_url ?? null },
            ),
          refused: (reason) =>
            record(deposit, () => ({ status: 'cancelled', cancel_reason: reason, closed_at: new Date() })),
        },
      );
    },

    sync,

    /** The payer's time is up: re-read once more (a late payment counts), otherwise the deposit is cancelled. */
    async expire(hotelId: string, depositId: string): Promise<ProviderPaymentOutcome> {
      const outcome = await sync(hotelId, depositId);
      if (outcome !== 'awaiting_payment') return outcome;
      const deposit = await load(hotelId, depositId);
      await record(deposit, (current) =>
        current.status === 'hold_created'
          ? { status: 'cancelled', cancel_reason: 'not_paid', closed_at: new Date() }
          : undefined,
      );
      return 'failed';
    },

    async perform(hotelId: string, depositId: string, command: DepositCommand): Promise<DepositStanding> {
      const deposit = await load(hotelId, depositId);
      if (command.operation === 'cancel') {
        // Cancelled by the request already; a card payment still open is watched until it cannot be paid any more.
        if (deposit.kind === 'cash') return 'closed';
        return (await sync(hotelId, depositId)) === 'awaiting_payment' ? 'open' : 'closed';
      }
      try {
        const after =
          command.operation === 'release' ? await release(deposit) : await refund(deposit, command.refundId!);
        return standing(after);
      } catch (error) {
        if (!isRefusal(error)) throw error;
        return refused(deposit, command, `${error.code ?? 'refused'}: ${error.message}`);
      }
    },

    /** The hold nears the provider's 7 days: the hotel's rule decides, and staff are told what was done. */
    async settleLapsingHold(hotelId: string, depositId: string): Promise<DepositStanding> {
      const deposit = await load(hotelId, depositId);
      if (deposit.status !== 'hold_confirmed') return standing(deposit);
      const { hold_expiry_action: action } = await deps.payments.settingsOf(hotelId);
      const credentials = await provider.credentials(hotelId);
      if (action === 'capture')
        await provider.client.capturePayment(credentials, deposit.provider_payment_id!, keys.capture(depositId));
      else await provider.client.cancelPayment(credentials, deposit.provider_payment_id!, keys.cancel(depositId));
      const settled = await db.transaction(async (trx) => {
        const current = await load(hotelId, depositId, trx, true);
        if (current.status !== 'hold_confirmed') return current;
        await deps.notifications.notify(trx, hotelId, settledNotice(current, action));
        return deposits.change(
          trx,
          current,
          action === 'capture' ? { status: 'captured' } : { status: 'released', closed_at: new Date() },
        );
      });
      return standing(settled);
    },

    /** At most one statement per deposit; a crash between sending and recording may send it twice, never zero. */
    async sendStatement(hotelId: string, depositId: string): Promise<string> {
      const deposit = await load(hotelId, depositId);
      if (deposit.statement_sent_at) return 'already sent';
      if (deposit.status !== 'released' || !deposit.guest_email) return 'no statement';
      const hotel = await deps.hotels.find(hotelId);
      await mailer!.send(depositStatement(hotel!, deposit));
      await record(deposit, () => ({ statement_sent_at: new Date() }));
      return 'sent';
    },
  };
}
