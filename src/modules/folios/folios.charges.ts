import type { VatRate } from '../../integrations/atol';
import type { DbOrTrx } from '../../platform/db/knex';
import type { MinibarCharge } from '../minibar';
import type { RentalCharge } from '../rentals';
import { BusinessRuleError } from '../../platform/errors';
import { formatMoney, parseMoney, sumMoney } from '../../platform/money';
import type { BookingStatus } from '../bookings';
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
  /** A charge with no booking goes to the stay in house in this room (the first time: then it stays with it). */
  roomId?: string;
  amount: string;
  description: string;
  posted_via: string;
  posted_by: string | null;
}

/** What a charge needs of the stays (the bookings' door): a stay's status, the stay in house in a room now. */
export interface ChargeStays {
  statusOf(trx: DbOrTrx, hotelId: string, bookingId: string): Promise<BookingStatus>;
  inHouseIn(trx: DbOrTrx, hotelId: string, roomId: string, at: Date): Promise<{ id: string } | undefined>;
}

export const chargeMessages = {
  stayClosed: 'Нельзя начислить аренду на бронь, которая уже выехала или отменена',
};

/** A new rental charge (or a rise of one) is refused on these stays; a reversal still goes through. */
const CLOSED_STAYS: readonly BookingStatus[] = ['checked_out', 'cancelled'];

/** A minibar item of a task's check, as a charge: keyed by the task and the item, posted by who counted. */
export const minibarCharge = (charge: MinibarCharge): StayCharge => ({
  hotelId: charge.hotelId,
  key: `minibar:${charge.taskId}:${charge.itemId}`,
  kind: 'minibar',
  bookingId: charge.bookingId,
  roomId: charge.roomId,
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
export async function postStayCharge(
  trx: DbOrTrx,
  post: Post,
  charge: StayCharge,
  vat: VatRate,
  door: ChargeStays,
): Promise<void> {
  const { hotelId, key } = charge;
  const posted = new Map<string, FolioLine[]>();
  for (const line of await linesRepository.bySourcePrefix(trx, hotelId, `${key}:`)) {
    const bookingId = line.source.slice(key.length + 1).split(':')[0];
    posted.set(bookingId, [...(posted.get(bookingId) ?? []), line]);
  }
  const target = charge.bookingId ?? (await stayInRoom(trx, charge, posted, door));
  const stays = new Set([...posted.keys(), ...(target ? [target] : [])]);
  for (const bookingId of stays) {
    const lines = posted.get(bookingId) ?? [];
    const wanted = bookingId === target ? parseMoney(charge.amount) : 0n;
    const difference = wanted - (await chargedSoFar(trx, hotelId, lines));
    if (difference === 0n) continue;
    if (difference > 0n && charge.kind === 'rental') {
      const status = await door.statusOf(trx, hotelId, bookingId);
      if (CLOSED_STAYS.includes(status)) throw new BusinessRuleError(chargeMessages.stayClosed, [], 'stay_closed');
    }
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

/**
 * The stay a charge with no booking goes to: the one it was posted to before (a later check keeps it there), or the
 * stay in house in its room now (a stayover or manual task's check during the stay); none otherwise.
 */
async function stayInRoom(trx: DbOrTrx, charge: StayCharge, posted: Map<string, FolioLine[]>, door: ChargeStays) {
  const [before] = posted.keys();
  if (before || !charge.roomId) return before ?? null;
  return (await door.inHouseIn(trx, charge.hotelId, charge.roomId, new Date()))?.id ?? null;
}

/** What a stay's lines of a charge come to, with the manual corrections pointing to them. */
async function chargedSoFar(trx: DbOrTrx, hotelId: string, lines: readonly FolioLine[]): Promise<bigint> {
  const manual = await linesRepository.correcting(
    trx,
    hotelId,
    lines.map((line) => line.id),
  );
  const own = new Set(lines.map((line) => line.id));
  const counted = [...lines, ...manual.filter((line) => !own.has(line.id))];
  return sumMoney(counted.map((line) => parseMoney(line.amount)));
}
