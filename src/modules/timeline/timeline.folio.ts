import type { TimelineDependencies } from './timeline.dependencies';
import { job, staff } from './timeline.actors';
import { readOf, type SourceEntry, type TimelineSource } from './timeline.types';

/** The night's postings summed per kind (one entry for all the nights, one for the tax); other lines one by one. */
const SUMMED = ['room_night', 'tourist_tax'] as const;
const LISTED = ['service', 'discount', 'correction', 'minibar', 'rental'] as const;

/** The line a deleted payment posts (a correction owed again): told as the payment deleted, by whom. */
const REMOVED = 'payment_removed:';

type Books = Awaited<ReturnType<TimelineDependencies['folios']['linesForTimeline']>>;

/** Which folio a move names, seen from this booking: its guest's or a company's, or another stay's (of its block). */
function folioName(bookingId: string, side: { booking: string; payer: string }) {
  if (side.booking !== bookingId) return 'another stay of the group';
  return side.payer === 'company' ? 'a company folio' : 'the guest folio';
}

function moveEntries(bookingId: string, moves: Books['moves']): SourceEntry[] {
  return moves.map((move) => {
    const from = folioName(bookingId, { booking: move.from_booking_id, payer: move.from_payer });
    const to = folioName(bookingId, { booking: move.to_booking_id, payer: move.to_payer });
    return {
      at: move.moved_at,
      kind: 'folio_line_moved',
      summary: `${move.kind} ${move.amount} moved from ${from} to ${to}`,
      actor: staff(move.moved_by),
    };
  });
}

/** The desk's decision for a balance at check-out; one no one made is the auto check-out's (`leave_open`). */
const settlementEntries = (settlements: Books['settlements']): SourceEntry[] =>
  settlements.map((settlement) => ({
    at: settlement.decided_at,
    kind: 'folio_settlement',
    summary: `${settlement.decision}: balance ${settlement.balance}`,
    actor: settlement.decided_by ? staff(settlement.decided_by) : job('autoCheckoutSweep'),
  }));

function lineEntries(lines: Books['lines']): SourceEntry[] {
  return lines.map((line) =>
    line.source.startsWith(REMOVED)
      ? {
          at: line.created_at,
          kind: 'payment_deleted',
          summary: `${line.amount}: ${line.description}`,
          actor: staff(line.posted_by),
        }
      : {
          at: line.created_at,
          kind: `folio_${line.kind}`,
          summary: `${line.amount}: ${line.description}`,
          actor: staff(line.posted_by),
        },
  );
}

/** The booking's books: lines posted (nights and tax summed), deleted payments, lines moved, settlement decisions. */
export const folio: TimelineSource<TimelineDependencies> = {
  name: 'folio',
  async read({ folios }, { hotelId, bookingId, limit }) {
    const books = await folios.linesForTimeline(hotelId, bookingId, { summed: SUMMED, listed: LISTED }, limit);
    const entries = [
      ...books.sums.map((sum) => ({
        at: sum.created_at,
        kind: `folio_${sum.kind}`,
        summary: `${sum.count} × ${sum.kind} posted ${sum.first_date}…${sum.last_date}, ${sum.amount} in all`,
        actor: job('nightAudit'),
      })),
      ...lineEntries(books.lines),
      ...moveEntries(bookingId, books.moves),
      ...settlementEntries(books.settlements),
    ];
    return readOf(entries, limit, books.lines.length, books.moves.length, books.settlements.length);
  },
};
