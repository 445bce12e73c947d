import type { DbOrTrx } from '../../platform/db/knex';
import { ConflictError } from '../../platform/errors';
import { parseMoney } from '../../platform/money';
import { hotelToday, type Booking, type LedgerEntry } from '../bookings';
import type { HotelsService } from '../hotels';
import type { PaymentsService } from '../payments';
import type { TouristTaxService } from '../tourist-tax';
import { postStayCharge, type ChargeStays, type StayCharge } from './folios.charges';
import { foliosRepository, folioSettingsRepository, linesRepository, settlementsRepository } from './folios.repository';
import { createNightPostings } from './folios.nights';
import { lineOfEntry, openDate, type HotelVat } from './folios.rules';
import type { FolioLine, LineInput } from './folios.types';

export interface PostingsDependencies {
  hotels: Pick<HotelsService, 'find'>;
  payments: Pick<PaymentsService, 'settingsOf'>;
  touristTax: Pick<TouristTaxService, 'ofNight'>;
}

export const folioMessages = {
  notFound: 'Счёт (фолио) не найден',
  lineNotFound: 'Строка счёта не найдена',
  unsettled: (balance: string) =>
    `Остаток по счёту гостя ${balance} ₽: примите его, запишите решение (POST …/folio/settlement) или выселите после ` +
    'расчёта',
  leftBySweep: 'Автоматический выезд: остаток оставлен открытым',
  closedDay: (date: string) => `День ${date} закрыт: его строки не меняются, исправление ставится новой строкой`,
  closeBackwards: (date: string) => `Дни по ${date} уже закрыты`,
  closeFuture: 'Нельзя закрыть день, который ещё не наступил',
  sign: (kind: string) =>
    kind === 'discount' ? 'Скидка — отрицательная сумма' : kind === 'service' ? 'Услуга — положительная сумма' : '',
  zero: 'Сумма строки не может быть нулевой',
  tooLarge: (max: string) => `Сумма строки не больше ${max} ₽ по модулю`,
  tooManyFolios: (max: number) => `У брони не больше ${max} счетов компаний`,
  sourceTaken: 'Этот ключ строки (source) уже использован для другой брони',
  sameFolio: 'Строка уже на этом счёте',
};

/** A line posted: `created` false when its source was posted before (the earlier line answered, nothing written). */
export interface Posted {
  line: FolioLine;
  created: boolean;
}

/**
 * What writes lines, always in the caller's transaction: the hotel's current business date, a line posted once per
 * source on a folio (the booking's guest folio unless named), and the lines the stays' records and check-ins bring.
 */
export function createPostings(deps: PostingsDependencies) {
  /** The hotel's business date today: its local date, or the day after the last closed one if that is later. */
  async function businessDate(conn: DbOrTrx, hotelId: string, wanted?: string, forShare = false): Promise<string> {
    const settings = await folioSettingsRepository.get(conn, hotelId, { forShare });
    const hotel = await deps.hotels.find(hotelId, conn);
    return openDate(settings.closed_through, wanted ?? hotelToday(hotel!.timezone));
  }

  async function post(trx: DbOrTrx, hotelId: string, bookingId: string, line: LineInput, folioId?: string) {
    const folio = folioId ?? (await foliosRepository.guestFolio(trx, hotelId, bookingId)).id;
    // The close waits for this line's transaction, and this line for a close going on: never a line in a closed day.
    const business_date = await businessDate(trx, hotelId, line.business_date, true);
    const inserted = await linesRepository.insert(trx, hotelId, folio, { ...line, business_date });
    if (inserted) return { line: inserted, created: true };
    return { line: (await linesRepository.bySource(trx, hotelId, line.source))!, created: false };
  }

  async function vatOf(conn: DbOrTrx, hotelId: string): Promise<HotelVat> {
    const settings = await deps.payments.settingsOf(hotelId, conn);
    return { lodging: settings.fiscal_vat, roomService: settings.fiscal_vat_room_service };
  }

  /** The guest folio's balance now. */
  async function guestBalance(conn: DbOrTrx, hotelId: string, bookingId: string): Promise<string> {
    const folio = await foliosRepository.guestFolio(conn, hotelId, bookingId);
    return linesRepository.sum(conn, hotelId, folio.id);
  }

  const nights = createNightPostings({
    ...deps,
    post,
    vatOf,
    businessDate: (conn, hotelId) => businessDate(conn, hotelId),
  });

  return {
    businessDate,
    post,
    guestBalance,
    nights,

    /** A charge, payment or deleted payment of the stay's records, on its guest folio, once. */
    async postEntry(trx: DbOrTrx, entry: LedgerEntry): Promise<void> {
      const { hotel_id: hotelId, id: bookingId } = entry.booking;
      const line = lineOfEntry(entry, await vatOf(trx, hotelId));
      const corrected =
        entry.kind === 'payment_removed'
          ? await linesRepository.bySource(trx, hotelId, `payment:${entry.payment.id}`)
          : undefined;
      await post(trx, hotelId, bookingId, { ...line, corrects_line_id: corrected?.id ?? null });
    },

    /** A minibar item or a rental charged to a stay, its lines brought to what it comes to now (folios.charges.ts). */
    async postCharge(trx: DbOrTrx, charge: StayCharge, stays: ChargeStays): Promise<void> {
      await postStayCharge(trx, post, charge, (await vatOf(trx, charge.hotelId)).roomService, stays);
    },

    /**
     * A check-out of a hotel that asks for it: a guest folio whose balance is not zero needs the desk's decision
     * recorded for that balance first (409 naming the balance otherwise). A check-out no one at the desk made (the
     * auto check-out sweep) is not refused: it records `leave_open` for the balance, by no one.
     */
    async settleAtCheckOut(trx: DbOrTrx, booking: Booking, byStaff: boolean): Promise<void> {
      const { hotel_id: hotelId, id: bookingId } = booking;
      const settings = await folioSettingsRepository.get(trx, hotelId);
      if (!settings.checkout_needs_settlement) return;
      await foliosRepository.lockBooking(trx, hotelId, bookingId);
      const balance = await guestBalance(trx, hotelId, bookingId);
      if (parseMoney(balance) === 0n) return;
      const decisions = await settlementsRepository.ofBooking(trx, hotelId, bookingId);
      if (decisions.some((decision) => parseMoney(decision.balance) === parseMoney(balance))) return;
      if (byStaff) throw new ConflictError(folioMessages.unsettled(balance), 'folio_unsettled');
      const decision = { decision: 'leave_open', balance, note: folioMessages.leftBySweep, decided_by: null } as const;
      await settlementsRepository.insert(trx, hotelId, bookingId, decision);
    },
  };
}

export type Postings = ReturnType<typeof createPostings>;
