import { gatewayMessages, type YooKassaPayment } from '../payments';
import type { DepositKind } from '../../../workflows/contracts/deposits';
import type { ProviderPaymentOutcome } from '../../../workflows/contracts/payments';
import { formatMoney, parseMoney } from '../../platform/money';
import type { Deduction, Deposit, DepositStatus } from './deposits.types';

/** The rules of a deposit's life, without I/O: what staff may ask in each status, and what a provider read means. */

export const depositMessages = {
  notFound: 'Депозит не найден',
  refundNotFound: 'Возврат по депозиту не найден',
  bookingNotFound: 'Бронирование не найдено',
  bookingClosed: 'Нельзя принять депозит по отменённой или завершённой брони',
  alreadyOpen: 'У брони уже есть незакрытый депозит',
  noGateway: gatewayMessages.noneActive,
  operationPending: 'По депозиту уже выполняется операция, дождитесь её завершения',
  cannotCancel: (status: DepositStatus) => `Депозит в статусе «${status}» нельзя отменить`,
  cannotRelease: (status: DepositStatus) => `Депозит в статусе «${status}» нельзя вернуть`,
  releaseNeedsCheckout: 'Депозит возвращается только после выезда гостя',
  deductionsTooLarge: 'Сумма удержаний превышает сумму депозита',
  notRefundable: 'Вернуть деньги можно только по депозиту, списанному полностью (yookassa_charge)',
  refundTooLarge: 'Сумма возврата превышает оплаченную и ещё не возвращённую сумму',
  nothingToRefund: 'По депозиту нечего возвращать',
};

/** Statuses in which the deposit holds nothing any more. */
export const CLOSED_STATUSES: readonly DepositStatus[] = ['released', 'refunded', 'cancelled', 'expired'];

/**
 * The kind a deposit is taken as: a card hold lives 7 days at the provider, so a stay longer than the hotel's
 * threshold is charged in full instead (when the hotel turned that on).
 */
export function depositKindFor(
  requested: DepositKind,
  nights: number,
  settings: { long_stay_charge_enabled: boolean; long_stay_threshold_days: number },
): DepositKind {
  if (requested === 'hold' && settings.long_stay_charge_enabled && nights > settings.long_stay_threshold_days)
    return 'yookassa_charge';
  return requested;
}

export function canCancel(deposit: Deposit): boolean {
  return deposit.status === 'hold_created' || deposit.status === 'paid_cash';
}

export function canRelease(deposit: Deposit): boolean {
  return ['hold_confirmed', 'paid', 'paid_cash', 'captured'].includes(deposit.status);
}

/** What a release keeps (the deductions) and what it gives back, in cents; undefined when deductions exceed it. */
export function releaseSplit(
  deposit: Deposit,
  deductions: Deduction[],
): { keep: bigint; giveBack: bigint } | undefined {
  const available = parseMoney(deposit.amount) - parseMoney(deposit.refunded_amount);
  const keep = deductions.reduce((sum, line) => sum + parseMoney(line.amount), 0n);
  return keep > available ? undefined : { keep, giveBack: available - keep };
}

/**
 * What may still be refunded of money taken (a charge deposit, or a hold the hotel captured): paid, minus kept, minus
 * refunded or being refunded.
 */
export function refundable(deposit: Deposit, pendingRefunds: bigint): bigint {
  if (!['paid', 'partially_refunded', 'captured'].includes(deposit.status)) return 0n;
  return (
    parseMoney(deposit.amount) -
    parseMoney(deposit.captured_amount) -
    parseMoney(deposit.refunded_amount) -
    pendingRefunds
  );
}

/** The status after a refund of `cents` succeeded. */
export function afterRefund(deposit: Deposit, cents: bigint): Pick<Deposit, 'status' | 'refunded_amount'> {
  const refunded = parseMoney(deposit.refunded_amount) + cents;
  const remaining = parseMoney(deposit.amount) - parseMoney(deposit.captured_amount) - refunded;
  return { status: remaining > 0n ? 'partially_refunded' : 'refunded', refunded_amount: formatMoney(refunded) };
}

/** A reading of the provider applied to the deposit: the changes to record, and money to hand back if any. */
export interface ProviderReading {
  changes: Partial<Deposit>;
  outcome: ProviderPaymentOutcome;
  /** The payer paid a deposit that is cancelled meanwhile: the hold is cancelled or the charge refunded in full. */
  reverse?: 'cancel_hold' | 'refund_charge';
}

function cardOf(payment: YooKassaPayment): Pick<Deposit, 'card_last4' | 'card_brand'> {
  const card = payment.payment_method?.card;
  return { card_last4: card?.last4 ?? null, card_brand: card?.card_type ?? null };
}

/**
 * What the provider's current state of the payment means for the deposit. Only forward moves: a stale or repeated
 * reading of a state already recorded changes nothing.
 */
export function readProviderPayment(deposit: Deposit, payment: YooKassaPayment, now: Date): ProviderReading {
  const held = payment.status === 'waiting_for_capture';
  const charged = payment.status === 'succeeded';
  const canceled = payment.status === 'canceled';
  if (deposit.status === 'hold_created') {
    if (held || charged)
      return {
        outcome: 'paid',
        changes: { status: held ? 'hold_confirmed' : 'paid', confirmed_at: now, ...cardOf(payment) },
      };
    if (canceled)
      return {
        outcome: 'failed',
        changes: {
          status: 'cancelled',
          cancel_reason: payment.cancellation_details?.reason ?? 'canceled',
          closed_at: now,
        },
      };
    return { outcome: 'awaiting_payment', changes: {} };
  }
  if (deposit.status === 'cancelled' && deposit.provider_payment_id === payment.id) {
    if (held) return { outcome: 'failed', changes: {}, reverse: 'cancel_hold' };
    if (charged && parseMoney(payment.refunded_amount?.value ?? '0') === 0n)
      return { outcome: 'failed', changes: {}, reverse: 'refund_charge' };
    return { outcome: payment.status === 'pending' ? 'awaiting_payment' : 'failed', changes: {} };
  }
  if (deposit.status === 'hold_confirmed' && canceled)
    return {
      outcome: 'failed',
      changes: { status: 'expired', cancel_reason: payment.cancellation_details?.reason ?? 'canceled', closed_at: now },
    };
  return { outcome: CLOSED_STATUSES.includes(deposit.status) ? 'failed' : 'paid', changes: {} };
}
