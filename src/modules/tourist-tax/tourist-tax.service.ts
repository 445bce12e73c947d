import { addDays } from '../../platform/dates';
import type { VatRate } from '../../integrations/atol';
import type { SharedSettings } from '../../platform/config';
import { decryptSecret, encryptSecret } from '../../platform/crypto';
import { refusalsAs } from '../../platform/db/base-model';
import type { Db, DbOrTrx } from '../../platform/db/knex';
import { NotFoundError, ValidationError } from '../../platform/errors';
import type { ExpectedVersion } from '../../platform/http/concurrency';
import { formatMoney, formatPercent, parseMoney, parsePercent } from '../../platform/money';
import type { HotelsService } from '../hotels';
import type { PaymentsService } from '../payments';
import { monthReport } from './tourist-tax.report';
import {
  exemptionsRepository,
  settingsRepository,
  type ExemptionRow,
  type ReportedStay,
  type TouristTaxSettingsRow,
} from './tourist-tax.repository';
import {
  NO_TOURIST_TAX,
  coveredBy,
  type CoveringExemption,
  nightsOf,
  overlappingSeasons,
  spread,
  stayTax,
  yearAboveMaximum,
} from './tourist-tax.rules';
import {
  EXEMPTION_CATEGORIES,
  type ExemptionInput,
  type PricedNight,
  type StayTax,
  type TaxSeason,
  type TaxSettings,
} from './tourist-tax.types';

export const touristTaxMessages = {
  aboveMaximum: (year: number) => `Ставка выше предельной для ${year} года (ст. 418.6 НК РФ)`,
  seasonDates: 'Окончание сезона не может быть раньше его начала',
  overlap: 'Сезоны не могут пересекаться',
  bookingNotFound: 'Бронирование не найдено',
  exemptionNotFound: 'Льгота по туристическому налогу не отмечена',
  validUntil: 'Документ не может действовать до даты его выдачи',
};

export interface TouristTaxDependencies {
  hotels: Pick<HotelsService, 'find'>;
  payments: Pick<PaymentsService, 'settingsOf'>;
}

export type SettingsChanges = Partial<Pick<TouristTaxSettingsRow, 'enabled' | 'rate' | 'seasons' | 'vat_rate'>>;

/** A stay as the tax sees it: its nights and what its lodging costs. */
export interface TaxedStay {
  booking_id?: string;
  check_in: string;
  check_out: string;
  /** The lodging's price for the whole stay; shared among the nights by `weights` (equal shares without). */
  price: string;
  weights?: string[];
}

/** A booking as its tax is read from it. */
export interface BookedStay {
  id: string;
  check_in: string | null;
  check_out: string | null;
  price: string;
}

const fieldError = (path: string, message: string) => new ValidationError(message, [{ path, message }]);

/** The hotel's calendar date now. */
function todayIn(timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format();
}

/** Refuses seasons that end before they start, overlap, or whose rate is above the law's for a year they cover. */
function assertSeasons(seasons: TaxSeason[]) {
  seasons.forEach((season, index) => {
    if (season.to < season.from) throw fieldError(`body.seasons.${index}.to`, touristTaxMessages.seasonDates);
    const year = yearAboveMaximum(season.rate, season.from, season.to);
    if (year) throw fieldError(`body.seasons.${index}.rate`, touristTaxMessages.aboveMaximum(year));
  });
  const overlap = overlappingSeasons(seasons);
  if (overlap) throw fieldError(`body.seasons.${overlap[1]}`, touristTaxMessages.overlap);
}

const canonical = (rate: string) => formatPercent(parsePercent(rate));

export function createTouristTaxService(
  db: Db,
  config: Pick<SharedSettings, 'encryption'>,
  deps: TouristTaxDependencies,
) {
  const { encryption } = config;

  async function appliedVat(hotelId: string, row: TouristTaxSettingsRow, conn: DbOrTrx): Promise<VatRate> {
    return row.vat_rate ?? (await deps.payments.settingsOf(hotelId, conn)).fiscal_vat;
  }

  async function present(hotelId: string, row: TouristTaxSettingsRow) {
    const vat = await appliedVat(hotelId, row, db);
    const { hotel_id: _hotel, ...fields } = row;
    return { ...fields, prices_include_vat: vat !== 'none' && vat !== '0', applied_vat_rate: vat };
  }

  /** What the tax of the hotel's nights is computed with, read in `conn`. */
  async function settingsFor(hotelId: string, conn: DbOrTrx = db): Promise<TaxSettings> {
    const row = await settingsRepository.get(conn, hotelId);
    // The VAT matters only to a tax charged: a hotel that charges none reads nothing more.
    const vat = row.enabled ? await appliedVat(hotelId, row, conn) : 'none';
    return { enabled: row.enabled, rate: row.rate, seasons: row.seasons, vat };
  }

  function taxOf(settings: TaxSettings, stay: TaxedStay, exemption?: CoveringExemption): StayTax {
    const nights = nightsOf(stay.check_in, stay.check_out);
    const weights = stay.weights?.map(parseMoney) ?? nights.map(() => 0n);
    const prices = spread(parseMoney(stay.price), weights);
    const priced: PricedNight[] = nights.map((date, index) => ({ date, price: formatMoney(prices[index]) }));
    return stayTax(settings, priced, exemption ? coveredBy(exemption) : undefined);
  }

  /**
   * The tax of a stay, night by night, with the exemption its booking has (if named): what a quote shows and, night
   * by night, what is posted with the room night. A hotel that does not charge it: no nights, nothing.
   */
  async function forStay(hotelId: string, stay: TaxedStay, conn: DbOrTrx = db): Promise<StayTax> {
    const settings = await settingsFor(hotelId, conn);
    if (!settings.enabled) return NO_TOURIST_TAX;
    const exemption = stay.booking_id ? await exemptionsRepository.find(conn, hotelId, stay.booking_id) : undefined;
    return taxOf(settings, stay, exemption);
  }

  function presentExemption(row: ExemptionRow) {
    const { hotel_id: _hotel, document_number_encrypted, document_key_id: _key, ...fields } = row;
    return {
      ...fields,
      category_name: EXEMPTION_CATEGORIES[row.category],
      document_number: decryptSecret(document_number_encrypted, encryption),
    };
  }

  return {
    getSettings: async (hotelId: string) => present(hotelId, await settingsRepository.get(db, hotelId)),

    /** Changes the settings; every rate at most the law's maximum for each year it applies to (400 naming the year). */
    async updateSettings(hotelId: string, changes: SettingsChanges, expected?: ExpectedVersion) {
      const seasons = changes.seasons?.map((season) => ({ ...season, rate: canonical(season.rate) }));
      if (seasons) assertSeasons(seasons);
      if (changes.rate !== undefined) {
        const hotel = await deps.hotels.find(hotelId);
        const today = todayIn(hotel!.timezone);
        const year = yearAboveMaximum(changes.rate, today, today);
        if (year) throw fieldError('body.rate', touristTaxMessages.aboveMaximum(year));
      }
      await settingsRepository.change(db, hotelId, { ...changes, ...(seasons && { seasons }) }, expected);
      return present(hotelId, await settingsRepository.get(db, hotelId));
    },

    settingsFor,

    forStay,

    /** The tax of a booking made: its nights (none for an hourly stay), its price in equal shares, its exemption. */
    async ofBooking(hotelId: string, booking: BookedStay, conn: DbOrTrx = db): Promise<StayTax> {
      if (!booking.check_in || !booking.check_out) return NO_TOURIST_TAX;
      const { id, check_in, check_out, price } = booking;
      return forStay(hotelId, { booking_id: id, check_in, check_out, price }, conn);
    },

    /**
     * The tax of one night of a booking on the amount posted for it (the night audit posts nights one by one): the
     * rules of a stay of that one night, its exemption included. Nothing lodged (zero or less), no tax.
     */
    async ofNight(hotelId: string, bookingId: string, night: string, amount: string, conn: DbOrTrx = db) {
      if (parseMoney(amount) <= 0n) return '0.00';
      const check_out = addDays(night, 1);
      const stay = await forStay(hotelId, { booking_id: bookingId, check_in: night, check_out, price: amount }, conn);
      return stay.per_night[0]?.tax ?? '0.00';
    },

    exemptions: {
      async get(hotelId: string, bookingId: string) {
        const row = await exemptionsRepository.find(db, hotelId, bookingId);
        if (!row) throw new NotFoundError(touristTaxMessages.exemptionNotFound);
        return presentExemption(row);
      },

      async put(hotelId: string, bookingId: string, input: ExemptionInput, by: string | null) {
        if (input.valid_until && input.valid_until < input.document_date)
          throw fieldError('body.valid_until', touristTaxMessages.validUntil);
        const columns = {
          category: input.category,
          description: input.description ?? null,
          document_kind: input.document_kind,
          document_number_encrypted: encryptSecret(input.document_number, encryption),
          document_key_id: encryption.currentKeyId,
          document_date: input.document_date,
          valid_until: input.valid_until ?? null,
          recorded_by: by,
        };
        const gone = () => new NotFoundError(touristTaxMessages.bookingNotFound);
        await refusalsAs({ foreignKey: gone }, () => exemptionsRepository.put(db, hotelId, bookingId, columns));
        return presentExemption((await exemptionsRepository.find(db, hotelId, bookingId))!);
      },

      async remove(hotelId: string, bookingId: string) {
        if ((await exemptionsRepository.remove(db, hotelId, bookingId)) === 0)
          throw new NotFoundError(touristTaxMessages.exemptionNotFound);
      },
    },

    /** What the declaration of a month needs, from the nights stayed in it (see `tourist-tax.report.ts`). */
    async report(hotelId: string, month: string) {
      const hotel = await deps.hotels.find(hotelId);
      const [settings, stays] = await Promise.all([
        settingsFor(hotelId),
        exemptionsRepository.staysOver(db, hotelId, ...monthBounds(month)),
      ]);
      const exemptionOf = ({ category, document_date, valid_until }: ReportedStay) =>
        category && document_date ? { category, document_date, valid_until } : undefined;
      const taxes = stays.map((stay) => taxOf(settings, stay, exemptionOf(stay)));
      return monthReport(month, todayIn(hotel!.timezone), taxes);
    },
  };
}

/** The first night of a month `YYYY-MM` and of the next. */
function monthBounds(month: string): [string, string] {
  const [year, number] = month.split('-').map(Number);
  const next = number === 12 ? `${year + 1}-01` : `${year}-${String(number + 1).padStart(2, '0')}`;
  return [`${month}-01`, `${next}-01`];
}

export type TouristTaxService = ReturnType<typeof createTouristTaxService>;
