import type { VatRate } from '../../integrations/atol';
import type { DbOrTrx } from '../../platform/db/knex';
import type { MinibarCharge } from '../minibar';
import type { RentalCharge } from '../rentals';
import { formatMoney, parseMoney, sumMoney } from '../../platform/money';
import { linesRepository } from './folios.repository';
import type { FolioLine, LineInput } from './folios.types';

/**
 * What another area charges to a stay (a minibar item a task's check found, a rental booked to a room), told with what
 * it amounts to now: `key` names the charge for good (`minibar:<task>:<item>`, `rental:<rental booking>`), `bookingId`
 * the stay it is charged to now (null: none), `amount` what it comes to now ('0.00' once cancelled).
 */
export interface StayCharge {
  hotelId: string;
  key: string;
  kind: 'minibar' | 'rental';
  bookingId: string | null;
  amount: string;
  description: string;
  posted_via: string;
  posted_by: string | null;
}

/** A minibar item of a task's check, as a charge: keyed by the task and the item, posted by who counted. */
export const minibarCharge = (charge: MinibarCharge): StayCharge => ({
  hotelId: charge.hotelId,
  key: `minibar:${charge.taskId}:${charge.itemId}`,
  kind: 'minibar',
  bookingId: charge.bookingId,
  amount: charge.amount,
  description: charge.description,
  posted_via: 'minibar',
  posted_by: charge.recordedBy,
});

/** A rental booking charged to a room, as a charge: keyed by the rental booking, posted by who booked or changed it. */
export const rentalCharge = (charge: RentalCharge): StayCharge => ({
  hotelId: charge.hotelId,
  key: `rental:${charge.rentalBookingId}`,
  kind: 'rental',
  bookingId: charge.bookingId,
  amount: charge.amount,
  description: charge.description,
  posted_via: 'rentals',
  posted_by: charge.by,
});

type Post = (trx: DbOrTrx, hotelId: string, bookingId: string, line: LineInput, folioId?: string) => Promise<unknown>;

/**
 * Brings a charge's lines to what it amounts to now, by new lines only: the first line of a stay is of the charge's
 * kind, every later change (a quantity counted again, a price changed, a cancellation, the charge moved to another
 * stay) a `correction` of the difference pointing to it, on the folio that line is on. Sources are
 * `<key>:<booking>:<n>` (n: the lines that stay has of it before), so a charge told twice posts once; the teller
 * serializes the tellings of one charge (its own row lock).
 */
export async function postStayCharge(trx: DbOrTrx, post: Post, charge: StayCharge, vat: VatRate): Promise<void> {
  const { hotelId, key } = charge;
  const posted = new Map<string, FolioLine[]>();
  for (const line of await linesRepository.bySourcePrefix(trx, hotelId, `${key}:`)) {
    const bookingId = line.source.slice(key.length + 1).split(':')[0];
    posted.set(bookingId, [...(posted.get(bookingId) ?? []), line]);
  }
  const stays = new Set([...posted.keys(), ...(charge.bookingId ? [charge.bookingId] : [])]);
  for (const bookingId of stays) {
    const lines = posted.get(bookingId) ?? [];
    const wanted = bookingId === charge.bookingId ? parseMoney(charge.amount) : 0n;
    const difference = wanted - sumMoney(lines.map((line) => parseMoney(line.amount)));
    if (difference === 0n) continue;
    const [first] = lines;
    await post(
      trx,
      hotelId,
      bookingId,
      {
        kind: first ? 'correction' : charge.kind,
        amount: formatMoney(difference),
        vat_rate: vat,
        description: first ? `Исправление: ${charge.description}` : charge.description,
        source: `${key}:${bookingId}:${lines.length}`,
        posted_via: charge.posted_via,
        posted_by: charge.posted_by,
        corrects_line_id: first?.id ?? null,
      },
      first?.folio_id,
    );
  }
}
