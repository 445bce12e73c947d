import { atLeastZero } from '../../platform/money';
import type { ReceiptDue } from '../folios';

/** What a receipt gave one thing at one VAT rate, in kopecks (negative for a refund's). */
export type ReceiptShare = ReceiptDue;

/** The lodging is one thing whatever its rate; every other thing is one per VAT rate. */
const keyOf = ({ kind, vat_rate }: ReceiptShare) => (kind === 'lodging' ? kind : `${kind}:${vat_rate}`);

interface Ledger {
  thing: Pick<ReceiptShare, 'kind' | 'vat_rate'>;
  owed: bigint;
  receipted: bigint;
  covered: bigint;
  share: bigint;
}

const least = (a: bigint, b: bigint) => (a < b ? a : b);

/** Each thing owed or receipted before, the lodging first, then in the dues' order, with what it owes clamped at 0. */
function ledgersOf(dues: readonly ReceiptDue[], receipted: readonly ReceiptShare[]): Ledger[] {
  const ledgers = new Map<string, Ledger>();
  const entry = (thing: ReceiptShare) => {
    const found = ledgers.get(keyOf(thing));
    if (found) return found;
    const created = {
      thing: { kind: thing.kind, vat_rate: thing.vat_rate },
      owed: 0n,
      receipted: 0n,
      covered: 0n,
      share: 0n,
    };
    ledgers.set(keyOf(thing), created);
    return created;
  };
  entry({ kind: 'lodging', vat_rate: null, amount: 0n });
  for (const due of dues) entry(due).owed += atLeastZero(due.amount);
  for (const share of receipted) entry(share).receipted += share.amount;
  return [...ledgers.values()];
}

/** Hands out `amount` in `order`, each ledger taking at most `room(ledger)`; answers what is left. */
function handOut(
  order: Ledger[],
  amount: bigint,
  room: (ledger: Ledger) => bigint,
  take: (l: Ledger, v: bigint) => void,
) {
  let left = amount;
  for (const ledger of order) {
    const given = least(left, atLeastZero(room(ledger)));
    take(ledger, given);
    left -= given;
  }
  return left;
}

/**
 * What a desk payment (`cents` > 0) or refund (`cents` < 0) gives each thing, for its receipt lines, from what each
 * owes now (`dues`, the lodging first), what the desk's earlier receipts gave each (`receipted`) and the money paid
 * before it (`paidBefore`). Money paid without a desk receipt (online, a transfer) is counted as paying the things in
 * order. A payment pays what each thing still owes, in order; what goes beyond is an advance on the lodging. A refund
 * gives back, in the reverse order, first what was receipted beyond what a thing owes now (a minibar count corrected
 * to less), then what was receipted for it; beyond that it is the lodging's (money whose receipt was not the desk's).
 * The shares always sum to the payment.
 */
export function paymentShares(
  cents: bigint,
  dues: readonly ReceiptDue[],
  receipted: readonly ReceiptShare[],
  paidBefore: bigint,
): ReceiptShare[] {
  const ledgers = ledgersOf(dues, receipted);
  for (const ledger of ledgers) ledger.covered = ledger.receipted;
  const unreceipted = paidBefore - ledgers.reduce((sum, ledger) => sum + ledger.receipted, 0n);
  handOut(
    ledgers,
    atLeastZero(unreceipted),
    (l) => l.owed - l.covered,
    (l, v) => (l.covered += v),
  );
  const give = (l: Ledger, v: bigint) => (l.share += v);
  let left: bigint;
  if (cents >= 0n) left = handOut(ledgers, cents, (l) => l.owed - l.covered, give);
  else {
    const backwards = [...ledgers].reverse();
    left = handOut(backwards, -cents, (l) => l.receipted - l.owed, give);
    left = handOut(backwards, left, (l) => l.receipted - l.share, give);
  }
  ledgers[0].share += left;
  return ledgers.filter((ledger) => ledger.share > 0n).map(({ thing, share }) => ({ ...thing, amount: share }));
}
