import type { VatRate } from '../../integrations/atol';
import { parseMoney } from '../../platform/money';
import type { Booking } from '../bookings';
import type { FolioLine, LineKind } from './folios.types';

/** What a desk receipt names as a thing paid for: the lodging, or a kind of the guest folio's lines. */
const DUE_KINDS = ['lodging', 'tourist_tax', 'room_service', 'service', 'minibar', 'rental'] as const;
export type DueKind = (typeof DUE_KINDS)[number];

/**
 * What the guest owes at the desk for one thing at one VAT rate, in kopecks (negative when more was given back than
 * owed). The lodging's `vat_rate` is null: it is the hotel's lodging rate of the moment (the receipt's).
 */
export interface ReceiptDue {
  kind: DueKind;
  vat_rate: VatRate | null;
  amount: bigint;
}

const FOLIO_DUES: readonly LineKind[] = ['tourist_tax', 'room_service', 'service', 'minibar', 'rental'];

/**
 * What the guest owes at the desk, thing by thing, from the guest folio's lines (`guestLines`) and the stay's nights
 * wherever they are (`nights`: its `room_night:<booking>:` lines): each line of the tourist tax, room service, a
 * service, the minibar or a rental at its own VAT rate, a correction counted with the line it corrects (its kind and
 * rate). The lodging is the stay's price (its nights are posted at check-in, or night by night by the night audit, so
 * the price is what they come to), less its nights moved to another folio, plus nights of other stays moved to this
 * one, plus the guest folio's discounts. The tourist tax adds that of the nights not posted yet (`pendingTax`), so a
 * stay paid ahead of its nights pays their tax as the tax, not as lodging. Lines on a company's folio are not the
 * guest's to pay at the desk.
 */
export function receiptDuesOf(
  booking: Pick<Booking, 'id' | 'price'>,
  guestFolio: string,
  guestLines: readonly FolioLine[],
  nights: readonly FolioLine[],
  pendingTax = 0n,
): ReceiptDue[] {
  const byId = new Map(guestLines.map((line) => [line.id, line]));
  let lodging = parseMoney(booking.price);
  for (const night of nights) if (night.folio_id !== guestFolio) lodging -= parseMoney(night.amount);
  const dues = new Map<string, ReceiptDue>();
  if (pendingTax > 0n) dues.set('tourist_tax:none', { kind: 'tourist_tax', vat_rate: 'none', amount: pendingTax });
  for (const line of guestLines) {
    const target = line.kind === 'correction' && line.corrects_line_id ? byId.get(line.corrects_line_id) : line;
    if (!target) continue;
    const amount = parseMoney(line.amount);
    const ownNight = line.source.startsWith(`room_night:${booking.id}:`);
    if (target.kind === 'discount' || (target.kind === 'room_night' && target === line && !ownNight)) lodging += amount;
    if (!FOLIO_DUES.includes(target.kind)) continue;
    const key = `${target.kind}:${target.vat_rate}`;
    const due = dues.get(key) ?? { kind: target.kind as DueKind, vat_rate: target.vat_rate, amount: 0n };
    dues.set(key, { ...due, amount: due.amount + amount });
  }
  const order = (due: ReceiptDue) => DUE_KINDS.indexOf(due.kind);
  return [
    { kind: 'lodging', vat_rate: null, amount: lodging },
    ...[...dues.values()].sort((a, b) => order(a) - order(b)),
  ];
}
