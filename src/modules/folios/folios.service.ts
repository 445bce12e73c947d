import { randomUUID } from 'node:crypto';
import type { Db, DbOrTrx } from '../../platform/db/knex';
import { transactionWithRetry } from '../../platform/db/retry';
import { createFollowers } from '../../platform/followers';
import { BusinessRuleError, ConflictError, NotFoundError, ValidationError } from '../../platform/errors';
import { formatMoney, parseMoney } from '../../platform/money';
import type { Booking, BookingsService } from '../bookings';
import type { MinibarService } from '../minibar';
import type { RentalsService } from '../rentals';
import { minibarCharge, rentalCharge, type ChargeStays } from './folios.charges';
import { createPostings, folioMessages, type PostingsDependencies } from './folios.postings';
import { foliosRepository, folioSettingsRepository, linesRepository, settlementsRepository } from './folios.repository';
import { receiptDuesOf, type ReceiptDue } from './folios.dues';
import { balanceOf, isClosed } from './folios.rules';
import {
  MAX_COMPANY_FOLIOS,
  MAX_MANUAL_AMOUNT,
  type CompanyFolioInput,
  type Folio,
  type FolioLine,
  type LineKind,
  type ManualLineInput,
  type SettlementDecision,
} from './folios.types';

export { folioMessages } from './folios.postings';

export interface FoliosDependencies extends PostingsDependencies {
  bookings: Pick<BookingsService, 'get' | 'getWithin' | 'inHouseIn' | 'followLedger' | 'followStays'>;
  minibar: Pick<MinibarService, 'followCharges'>;
  rentals: Pick<RentalsService, 'followCharges'>;
}

const bodyError = (field: string, message: string) =>
  new ValidationError(message, [{ path: `body.${field}`, message }]);

function assertSign({ kind, amount }: ManualLineInput): void {
  const cents = parseMoney(amount);
  if (cents === 0n) throw bodyError('amount', folioMessages.zero);
  const max = parseMoney(MAX_MANUAL_AMOUNT);
  if (cents > max || cents < -max) throw bodyError('amount', folioMessages.tooLarge(MAX_MANUAL_AMOUNT));
  if ((kind === 'discount' && cents > 0n) || (kind === 'service' && cents < 0n))
    throw bodyError('amount', folioMessages.sign(kind));
}

/** Another module's veto on moving a line (invoices: a line on a live invoice stays), in the move's transaction. */
export type MoveGuard = (trx: DbOrTrx, hotelId: string, line: FolioLine) => Promise<void>;

function present(folio: Folio, lines: FolioLine[]) {
  const own = lines.filter((line) => line.folio_id === folio.id);
  return { ...folio, balance: balanceOf(own), lines: own };
}

/**
 * A booking's books: its guest folio (made at its first line, or when first read) and its company folios, their lines
 * posted once per source, moved between folios and corrected by new lines, never changed in a closed day.
 */
export function createFoliosService(db: Db, deps: FoliosDependencies) {
  const postings = createPostings(deps);
  const moveGuards = createFollowers<Parameters<MoveGuard>>();

  deps.bookings.followLedger((trx, entry) => postings.postEntry(trx, entry));
  const stays: ChargeStays = {
    statusOf: async (trx, hotelId, bookingId) =>
      (await deps.bookings.getWithin(trx, hotelId, bookingId, 'share')).status,
    inHouseIn: deps.bookings.inHouseIn,
  };
  deps.minibar.followCharges((trx, charge) => postings.postCharge(trx, minibarCharge(charge), stays));
  deps.rentals.followCharges((trx, charge) => postings.postCharge(trx, rentalCharge(charge), stays));
  deps.bookings.followStays({
    statuses: ['checked_in', 'checked_out'],
    async effectsOf(trx, booking, reason) {
      if (booking.status === 'checked_in') await postings.nights.checkIn(trx, booking);
      else {
        await postings.nights.checkOut(trx, booking);
        await postings.settleAtCheckOut(trx, booking, reason === 'manual');
      }
      return {};
    },
  });

  /** The booking's folio of that id (404 for another booking's or hotel's). */
  async function folioOf(conn: DbOrTrx, hotelId: string, bookingId: string, id: string) {
    const folio = await foliosRepository.find(conn, hotelId, id);
    if (!folio || folio.booking_id !== bookingId) throw new NotFoundError(folioMessages.notFound);
    return folio;
  }

  async function lineOf(conn: DbOrTrx, hotelId: string, bookingId: string, id: string) {
    const line = await linesRepository.find(conn, hotelId, id);
    if (!line) throw new NotFoundError(folioMessages.lineNotFound);
    await folioOf(conn, hotelId, bookingId, line.folio_id).catch(() => {
      throw new NotFoundError(folioMessages.lineNotFound);
    });
    return line;
  }

  /** A folio a line of the booking may go to: one of its own, or one of another stay of its group block (locked). */
  async function destination(trx: DbOrTrx, hotelId: string, bookingId: string, folioId: string) {
    const folio = await foliosRepository.find(trx, hotelId, folioId);
    if (folio?.booking_id === bookingId) return folio;
    if (folio) {
      const [from, to] = await Promise.all([
        deps.bookings.get(hotelId, bookingId),
        deps.bookings.get(hotelId, folio.booking_id),
      ]);
      if (from.block_id !== null && from.block_id === to.block_id) {
        await foliosRepository.lockBooking(trx, hotelId, folio.booking_id);
        return folio;
      }
    }
    throw bodyError('folio_id', folioMessages.notFound);
  }

  /** Runs `work` with the booking's folios locked (the guest's made first), after checking the booking is the hotel's. */
  async function withBooking<T>(hotelId: string, bookingId: string, work: (trx: DbOrTrx) => Promise<T>) {
    await deps.bookings.get(hotelId, bookingId);
    return transactionWithRetry(db, async (trx) => {
      await foliosRepository.guestFolio(trx, hotelId, bookingId);
      await foliosRepository.lockBooking(trx, hotelId, bookingId);
      return work(trx);
    });
  }

  const closeGuards: CloseGuard[] = [];

  /** Closes the business days through `date`: never backwards (409), never ahead (400). */
  async function closeThrough(hotelId: string, date: string, byHand: boolean) {
    return transactionWithRetry(db, async (trx) => {
      if (byHand) for (const guard of closeGuards) await guard(trx, hotelId);
      await folioSettingsRepository.lock(trx, hotelId);
      const settings = await folioSettingsRepository.get(trx, hotelId);
      if (settings.closed_through && date <= settings.closed_through)
        throw new ConflictError(folioMessages.closeBackwards(settings.closed_through), 'folio_day_closed');
      if (date > (await postings.businessDate(trx, hotelId))) throw bodyError('date', folioMessages.closeFuture);
      await folioSettingsRepository.update(trx, hotelId, { closed_through: date });
      return folioSettingsRepository.get(trx, hotelId);
    });
  }

  return {
    postings,

    /**
     * A booking's books for its timeline: lines of `summed` kinds summed per kind, the latest `limit` of `listed`
     * (with their source: a deleted payment's is `payment_removed:`), the latest `limit` moves of lines onto or off
     * its folios, and the latest `limit` of the desk's settlement decisions.
     */
    async linesForTimeline(
      hotelId: string,
      bookingId: string,
      kinds: { summed: readonly LineKind[]; listed: readonly LineKind[] },
      limit: number,
    ) {
      return {
        sums: await linesRepository.sumsOfBooking(db, hotelId, bookingId, kinds.summed),
        lines: await linesRepository.ofBookingKinds(db, hotelId, bookingId, kinds.listed, limit),
        moves: await linesRepository.movesOfBooking(db, hotelId, bookingId, limit),
        settlements: await settlementsRepository.latestOfBooking(db, hotelId, bookingId, limit),
      };
    },

    /** What the guest owes at the desk, thing by thing (folios.dues.ts): what the desk receipts' lines pay. */
    async receiptDues(conn: DbOrTrx, hotelId: string, booking: Booking): Promise<ReceiptDue[]> {
      const folio = await foliosRepository.guestFolio(conn, hotelId, booking.id);
      const lines = await linesRepository.ofFolios(conn, hotelId, [folio.id]);
      const nights = await linesRepository.bySourcePrefix(conn, hotelId, `room_night:${booking.id}:`);
      const pendingTax = await postings.nights.pendingTax(conn, booking);
      return receiptDuesOf(booking, folio.id, lines, nights, pendingTax);
    },

    /** Called by a module built after folios: `guard` may refuse a move (it throws) before the line moves. */
    guardMoves: moveGuards.add,

    /**
     * For invoices: a folio of the hotel (undefined if none) with its lines, and the lines they correct
     * (transitively), read in the caller's transaction after its booking's folios are locked, so until that
     * transaction ends no line is moved on or off it nor posted to it by hand. The lines the stay's records post
     * (payments, charges, nights) take no such lock: the caller bills the lines it read, no others.
     */
    async lockedFolio(trx: DbOrTrx, hotelId: string, folioId: string) {
      const folio = await foliosRepository.find(trx, hotelId, folioId);
      if (!folio) return undefined;
      await foliosRepository.lockBooking(trx, hotelId, folio.booking_id);
      const lines = await linesRepository.ofFolios(trx, hotelId, [folio.id]);
      const corrected = await linesRepository.withCorrected(
        trx,
        hotelId,
        lines.flatMap((line) => line.corrects_line_id ?? []),
      );
      return { folio, lines, corrected: new Map(corrected.map((line) => [line.id, line])) };
    },

    /** For invoices: puts the line posted under `source` (in this transaction) on the folio, the move recorded. */
    async placeLine(trx: DbOrTrx, hotelId: string, source: string, folioId: string, by: string | null) {
      const line = (await linesRepository.bySource(trx, hotelId, source))!;
      if (line.folio_id === folioId) return line;
      await linesRepository.move(trx, hotelId, line, folioId, by);
      return { ...line, folio_id: folioId };
    },

    /** Every folio of the booking with its lines and balance, the balance of them all, the moves and decisions. */
    async view(hotelId: string, bookingId: string) {
      await deps.bookings.get(hotelId, bookingId);
      await foliosRepository.guestFolio(db, hotelId, bookingId);
      const folios = await foliosRepository.ofBooking(db, hotelId, bookingId);
      const lines = await linesRepository.ofFolios(
        db,
        hotelId,
        folios.map((folio) => folio.id),
      );
      const settings = await folioSettingsRepository.get(db, hotelId);
      return {
        booking_id: bookingId,
        balance: balanceOf(lines),
        business_date: await postings.businessDate(db, hotelId),
        closed_through: settings.closed_through,
        folios: folios.map((folio) => present(folio, lines)),
        moves: await linesRepository.moves(
          db,
          hotelId,
          lines.map((line) => line.id),
        ),
        settlements: await settlementsRepository.ofBooking(db, hotelId, bookingId),
      };
    },

    /**
     * A line staff post by hand, on today's business date, once per `source` (a retry answers the first line). A
     * correction may name the line it corrects (of the same booking).
     */
    async addManual(hotelId: string, bookingId: string, input: ManualLineInput, userId: string | null) {
      assertSign(input);
      return withBooking(hotelId, bookingId, async (trx) => {
        if (input.folio_id) await folioOf(trx, hotelId, bookingId, input.folio_id);
        if (input.corrects_line_id) await lineOf(trx, hotelId, bookingId, input.corrects_line_id);
        const vat = input.vat_rate ?? (await deps.payments.settingsOf(hotelId, trx)).fiscal_vat;
        const posted = await postings.post(
          trx,
          hotelId,
          bookingId,
          {
            kind: input.kind,
            amount: formatMoney(parseMoney(input.amount)),
            vat_rate: vat,
            description: input.description,
            source: `manual:${input.source ?? randomUUID()}`,
            posted_via: 'desk',
            posted_by: userId,
            corrects_line_id: input.corrects_line_id ?? null,
          },
          input.folio_id,
        );
        // A key is the hotel's: one another booking's line took is not answered here.
        if (!posted.created)
          await folioOf(trx, hotelId, bookingId, posted.line.folio_id).catch(() => {
            throw new ConflictError(folioMessages.sourceTaken, 'folio_source_taken');
          });
        return posted;
      });
    },

    /** A second folio of the booking for a company paying part of it. */
    async addCompanyFolio(hotelId: string, bookingId: string, payer: CompanyFolioInput, userId: string | null) {
      return withBooking(hotelId, bookingId, async (trx) => {
        const folios = await foliosRepository.ofBooking(trx, hotelId, bookingId);
        if (folios.filter((folio) => folio.payer_kind === 'company').length >= MAX_COMPANY_FOLIOS)
          throw new BusinessRuleError(folioMessages.tooManyFolios(MAX_COMPANY_FOLIOS), [], 'folio_limit');
        return present(await foliosRepository.insertCompany(trx, hotelId, bookingId, payer, userId), []);
      });
    },

    /**
     * Moves a line to another folio of the booking, or to one of another stay of its group block (a closed day's lines
     * stay where they are, and so do those a guard refuses, e.g. a line on a live invoice: 409).
     */
    async moveLine(hotelId: string, bookingId: string, lineId: string, toFolioId: string, userId: string | null) {
      return withBooking(hotelId, bookingId, async (trx) => {
        const line = await lineOf(trx, hotelId, bookingId, lineId);
        await destination(trx, hotelId, bookingId, toFolioId);
        if (line.folio_id === toFolioId) throw new ConflictError(folioMessages.sameFolio, 'folio_line_there');
        const { closed_through } = await folioSettingsRepository.get(trx, hotelId);
        if (isClosed(closed_through, line.business_date))
          throw new ConflictError(folioMessages.closedDay(line.business_date), 'folio_day_closed');
        await moveGuards.tell(trx, hotelId, line);
        return linesRepository.move(trx, hotelId, line, toFolioId, userId);
      });
    },

    /** The desk's decision on a balance left at check-out, recorded with the balance it was taken for. */
    async settle(
      hotelId: string,
      bookingId: string,
      input: { decision: SettlementDecision; note?: string },
      userId: string | null,
    ) {
      return withBooking(hotelId, bookingId, async (trx) => {
        const balance = await postings.guestBalance(trx, hotelId, bookingId);
        return settlementsRepository.insert(trx, hotelId, bookingId, {
          decision: input.decision,
          balance,
          note: input.note ?? null,
          decided_by: userId,
        });
      });
    },

    /** The night audit's posting of a stay's night (folios.nights `audit`), with the booking's folios locked. */
    postNight: (hotelId: string, bookingId: string, date: string) =>
      withBooking(hotelId, bookingId, async (trx) =>
        postings.nights.audit(trx, await deps.bookings.get(hotelId, bookingId), date),
      ),

    settings: {
      get: (hotelId: string) => folioSettingsRepository.get(db, hotelId),

      async change(hotelId: string, changes: { checkout_needs_settlement: boolean }) {
        await folioSettingsRepository.update(db, hotelId, changes);
        return folioSettingsRepository.get(db, hotelId);
      },

      /**
       * A module that closes the hotel's days itself (the night audit) refuses a close by hand while it does: `guard`
       * throws its error then.
       */
      guardCloseByHand(guard: CloseGuard) {
        closeGuards.push(guard);
      },

      /** Closes the business days through `date` by hand, unless a guard refuses it (the night audit on). */
      closeByHand: (hotelId: string, date: string) => closeThrough(hotelId, date, true),

      /** Closes the business days through `date` (the night audit's close). */
      closeThrough: (hotelId: string, date: string) => closeThrough(hotelId, date, false),
    },
  };
}

/** Refuses a close by hand of the hotel's days (throws), in the close's transaction. */
export type CloseGuard = (conn: DbOrTrx, hotelId: string) => Promise<void>;

export type FoliosService = ReturnType<typeof createFoliosService>;
