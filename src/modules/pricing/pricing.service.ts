import type { Db, DbOrTrx } from '../../platform/db/knex';
import { refusalsAs } from '../../platform/db/base-model';
import { mapPage, type PageRequest } from '../../platform/db/keyset';
import { ConflictError, NotFoundError, ValidationError } from '../../platform/errors';
import { missingOrStale, type ExpectedVersion } from '../../platform/http/concurrency';
import { daysBetween, MAX_RATE_SPAN_DAYS } from '../../platform/http/schemas';
import { overridesRepository, periodsRepository, tariffsRepository } from './pricing.repository';
import {
  MAX_OVERRIDE_DAYS,
  type DateWindow,
  type OverrideInput,
  type RatePeriod,
  type RatePeriodInput,
  type TariffInput,
} from './pricing.types';

export const pricingMessages = {
  tariffNotFound: 'Тариф не найден',
  tariffNameTaken: 'Тариф с таким названием уже существует',
  periodNotFound: 'Период не найден',
  overrideNotFound: 'Цена на дату не найдена',
  categoryNotFound: 'Категория не найдена',
  periodDates: 'Дата окончания периода не может быть раньше даты начала',
  periodSpan: `Период не может быть длиннее ${MAX_RATE_SPAN_DAYS} дней`,
  overrideSpan: `Укажите дату или диапазон не длиннее ${MAX_OVERRIDE_DAYS} дней`,
  percentRange: 'a percent adjustment must be between -100 and 1000',
  tariffInUse: 'Тариф указан в бронированиях: удалить его нельзя, сделайте его неактивным',
};

const DAY_MS = 24 * 3600 * 1000;

/** Calendar dates from `from` to `to` inclusive, computed on UTC midnights so no time zone can shift them. */
export function datesBetween(from: string, to: string): string[] {
  const dates: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += DAY_MS) {
    dates.push(new Date(t).toISOString().slice(0, 10));
  }
  return dates;
}

function categoryNotFound(): ValidationError {
  return new ValidationError(pricingMessages.categoryNotFound, [
    { path: 'body.category_id', message: pricingMessages.categoryNotFound },
  ]);
}

export function createPricingService(db: Db) {
  async function periodWithPrices(conn: DbOrTrx, hotelId: string, id: string): Promise<RatePeriod> {
    const period = await periodsRepository.find(conn, hotelId, id);
    if (!period) throw new NotFoundError(pricingMessages.periodNotFound);
    const prices = await periodsRepository.prices(conn, hotelId, [id]);
    return { ...period, prices: prices.map(({ period_id: _periodId, ...price }) => price) };
  }

  /** Writes a period and its prices; an overlap with another period of the same category is a 409 naming it. */
  async function savePeriod(
    hotelId: string,
    id: string | undefined,
    input: RatePeriodInput,
    expected?: ExpectedVersion,
  ): Promise<RatePeriod> {
    return refusalsAs({ foreignKey: categoryNotFound, exclusion: overlap }, () =>
      db.transaction(async (trx) => {
        const current = id ? await periodWithPrices(trx, hotelId, id) : undefined;
        const categoryIds = (input.prices ?? []).map((price) => price.category_id);
        if ((await periodsRepository.foreignCategories(trx, hotelId, categoryIds)).length > 0) throw categoryNotFound();
        const dates = { from: input.date_from ?? current?.date_from, to: input.date_to ?? current?.date_to };
        if (dates.from && dates.to && dates.to < dates.from) throw new ValidationError(pricingMessages.periodDates);
        // A change of one end alone is checked here, against the stored other end.
        if (dates.from && dates.to && daysBetween(dates.from, dates.to) > MAX_RATE_SPAN_DAYS)
          throw new ValidationError(pricingMessages.periodSpan);
        const fields = { name: input.name, date_from: input.date_from, date_to: input.date_to };
        const period = current
          ? await periodsRepository.update(trx, hotelId, current.id, fields, expected)
          : await periodsRepository.insert(
              trx,
              hotelId,
              fields as { name: string; date_from: string; date_to: string },
            );
        if (!period) throw await periodMissingOrStale(hotelId, id!, expected);
        await periodsRepository.replacePrices(trx, hotelId, period, input.prices ?? current?.prices ?? []);
        return periodWithPrices(trx, hotelId, period.id);
      }),
    );

    /** The 409 of an overlap names the period it clashes with (read once the refused transaction is rolled back). */
    async function overlap(): Promise<Error> {
      const existing = id ? await periodWithPrices(db, hotelId, id) : undefined;
      const [clash] = await periodsRepository.clashes(db, hotelId, {
        from: input.date_from ?? existing!.date_from,
        to: input.date_to ?? existing!.date_to,
        categoryIds: (input.prices ?? existing?.prices ?? []).map((price) => price.category_id),
        exceptId: id,
      });
      return new ConflictError(
        clash
          ? `Период пересекается с периодом «${clash.period_name}» (${clash.date_from} — ${clash.date_to}) для категории «${clash.category_name}»`
          : 'Период пересекается с другим периодом для этой категории',
        'period_overlap',
      );
    }
  }

  function tariffMissingOrStale(hotelId: string, id: string, expected: ExpectedVersion | undefined) {
    return missingOrStale(
      expected,
      () => tariffsRepository.find(db, hotelId, id),
      new NotFoundError(pricingMessages.tariffNotFound),
    );
  }
  function periodMissingOrStale(hotelId: string, id: string, expected: ExpectedVersion | undefined) {
    return missingOrStale(
      expected,
      () => periodsRepository.find(db, hotelId, id),
      new NotFoundError(pricingMessages.periodNotFound),
    );
  }

  const tariffWrite = <T>(write: () => Promise<T>) =>
    refusalsAs(
      {
        unique: { tariffs_hotel_id_name_unique: () => new ConflictError(pricingMessages.tariffNameTaken) },
        // An update may give a value alone (or a type alone): only the row as a whole shows a percent out of range.
        check: {
          tariffs_adjustment_check: () =>
            new ValidationError(pricingMessages.percentRange, [
              { path: 'body.adjustment_value', message: pricingMessages.percentRange },
            ]),
        },
      },
      write,
    );

  return {
    /** A tariff of the hotel, or undefined (within the caller's transaction when given). */
    findTariff: (hotelId: string, id: string, conn: DbOrTrx = db) => tariffsRepository.find(conn, hotelId, id),

    tariffs: {
      list: (hotelId: string, { limit, cursor, ...filter }: { is_active?: boolean } & PageRequest) =>
        tariffsRepository.list(db, hotelId, filter, { limit, cursor }),
      async get(hotelId: string, id: string) {
        const tariff = await tariffsRepository.find(db, hotelId, id);
        if (!tariff) throw new NotFoundError(pricingMessages.tariffNotFound);
        return tariff;
      },
      create: (hotelId: string, input: TariffInput) => tariffWrite(() => tariffsRepository.insert(db, hotelId, input)),
      async update(hotelId: string, id: string, input: TariffInput, expected?: ExpectedVersion) {
        const tariff = await tariffWrite(() => tariffsRepository.update(db, hotelId, id, input, expected));
        if (!tariff) throw await tariffMissingOrStale(hotelId, id, expected);
        return tariff;
      },
      async remove(hotelId: string, id: string, expected?: ExpectedVersion) {
        const inUse = () => new ConflictError(pricingMessages.tariffInUse, 'tariff_in_use');
        if (!(await refusalsAs({ foreignKey: inUse }, () => tariffsRepository.delete(db, hotelId, id, expected))))
          throw await tariffMissingOrStale(hotelId, id, expected);
      },
    },

    periods: {
      async list(hotelId: string, { limit, cursor, ...window }: DateWindow & PageRequest) {
        const periods = await periodsRepository.list(db, hotelId, window, { limit, cursor });
        const prices = await periodsRepository.prices(
          db,
          hotelId,
          periods.items.map((period) => period.id),
        );
        return mapPage(periods, (period): RatePeriod => ({
          ...period,
          prices: prices
            .filter((price) => price.period_id === period.id)
            .map(({ period_id: _periodId, ...price }) => price),
        }));
      },
      get: (hotelId: string, id: string) => periodWithPrices(db, hotelId, id),
      create: (hotelId: string, input: RatePeriodInput) => savePeriod(hotelId, undefined, input),
      update: (hotelId: string, id: string, input: RatePeriodInput, expected?: ExpectedVersion) =>
        savePeriod(hotelId, id, input, expected),
      async remove(hotelId: string, id: string, expected?: ExpectedVersion) {
        if (!(await periodsRepository.delete(db, hotelId, id, expected)))
          throw await periodMissingOrStale(hotelId, id, expected);
      },
    },

    overrides: {
      list: (hotelId: string, { limit, cursor, ...window }: DateWindow & PageRequest) =>
        overridesRepository.list(db, hotelId, window, { limit, cursor }),
      /** Sets the price of one date, or of every date in a range, for one category (existing dates are replaced). */
      async set(hotelId: string, input: OverrideInput) {
        const from = input.date ?? input.date_from!;
        const to = input.date ?? input.date_to!;
        // Counted by arithmetic before a single date is built, so no range can keep this loop busy.
        const days = daysBetween(from, to) + 1;
        if (!(days >= 1 && days <= MAX_OVERRIDE_DAYS)) throw new ValidationError(pricingMessages.overrideSpan);
        const dates = datesBetween(from, to);
        // Checked first: the (category, date) key spans every hotel, so another hotel's category must not reach it.
        if ((await periodsRepository.foreignCategories(db, hotelId, [input.category_id])).length > 0)
          throw categoryNotFound();
        const rows = dates.map((date) => ({
          category_id: input.category_id,
          date,
          price: input.price ?? null,
          hourly_price: input.hourly_price ?? null,
        }));
        return refusalsAs({ foreignKey: categoryNotFound }, () => overridesRepository.upsert(db, hotelId, rows));
      },
      async remove(hotelId: string, id: string) {
        if (!(await overridesRepository.delete(db, hotelId, id)))
          throw new NotFoundError(pricingMessages.overrideNotFound);
      },
    },
  };
}

export type PricingService = ReturnType<typeof createPricingService>;
