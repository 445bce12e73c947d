import { formatMoney, parseMoney, sumMoney } from '../../platform/money';
import type { FolioLine } from '../folios';
import {
  NOT_INVOICEABLE_KINDS,
  type InvoiceRow,
  type NewInvoiceLine,
  type PaymentStatus,
  type Series,
} from './invoices.types';

/** `2026-000042` for an invoice, `CN-2026-000007` for a credit note: the year, then the sequence of its series. */
export function documentNumber(series: Series, year: number, sequence: number): string {
  const number = `${year}-${String(sequence).padStart(6, '0')}`;
  return series === 'invoice' ? number : `CN-${number}`;
}

/** The lines a correction corrects, nearest first (its line, that line's...); none for a line that corrects none. */
function correctedBy(line: FolioLine, known: ReadonlyMap<string, FolioLine>): FolioLine[] {
  const chain: FolioLine[] = [];
  for (let next = known.get(line.corrects_line_id ?? ''); next && !chain.includes(next);) {
    chain.push(next);
    next = known.get(next.corrects_line_id ?? '');
  }
  return chain;
}

const settles = (line: Pick<FolioLine, 'kind'>) => NOT_INVOICEABLE_KINDS.includes(line.kind);

/**
 * A charge: not a payment or refund, nor a correction of one (a deleted payment is posted as a correction of its
 * line: money the guest owes again, not a charge of the hotel's).
 */
export const isInvoiceable = (line: FolioLine, known: ReadonlyMap<string, FolioLine>) =>
  !settles(line) && !correctedBy(line, known).some(settles);

/** A correction of a line on a live invoice: settled by that invoice's credit note and reissue, not another invoice. */
export const correctsInvoiced = (line: FolioLine, known: ReadonlyMap<string, FolioLine>, invoiced: Set<string>) =>
  correctedBy(line, known).some((corrected) => invoiced.has(corrected.id));

/** The VAT within an amount that includes it (a Russian price does): amount × rate / (100 + rate), to the kopeck. */
function vatWithin(amount: bigint, rate: string): bigint {
  if (rate === 'none' || rate === '0') return 0n;
  const r = BigInt(rate);
  const scaled = amount * r * 2n;
  const divisor = (100n + r) * 2n;
  // Half away from zero.
  return (scaled + (scaled >= 0n ? divisor / 2n : -divisor / 2n)) / divisor;
}

/** The invoice's lines from the folio's, in their order, each with the VAT it includes. */
export function invoiceLines(lines: FolioLine[]): NewInvoiceLine[] {
  return lines.map((line, position) => ({
    folio_line_id: line.id,
    position,
    description: line.description,
    business_date: line.business_date,
    amount: line.amount,
    vat_rate: line.vat_rate,
    vat_amount: formatMoney(vatWithin(parseMoney(line.amount), line.vat_rate)),
  }));
}

export function paymentStatusOf(invoice: Pick<InvoiceRow, 'total' | 'paid_amount'>): PaymentStatus {
  const paid = parseMoney(invoice.paid_amount);
  if (paid === 0n) return 'unpaid';
  return paid >= parseMoney(invoice.total) ? 'paid' : 'partially_paid';
}

/** The VAT of the invoice by rate, as it is printed under the lines (`none`: without VAT). */
export function vatByRate(lines: Pick<NewInvoiceLine, 'vat_rate' | 'amount' | 'vat_amount'>[]) {
  const rates = [...new Set(lines.map((line) => line.vat_rate))];
  return rates.map((rate) => {
    const own = lines.filter((line) => line.vat_rate === rate);
    return {
      vat_rate: rate,
      amount: formatMoney(sumMoney(own.map((line) => parseMoney(line.amount)))),
      vat_amount: formatMoney(sumMoney(own.map((line) => parseMoney(line.vat_amount)))),
    };
  });
}
