import { hotelTable } from '../../platform/db/hotel-table';
import { pageOf, type Page, type PageRequest, type SortKey } from '../../platform/db/keyset';
import type { DbOrTrx } from '../../platform/db/knex';
import type {
  DateWindow,
  OverrideInput,
  PeriodCategoryPrice,
  RateOverride,
  RatePeriod,
  Tariff,
  TariffInput,
} from './pricing.types';

type PeriodRow = Omit<RatePeriod, 'prices'>;

const TARIFF_ORDER: SortKey[] = [
  { sql: 'name', type: 'text' },
  { sql: 'id', type: 'uuid' },
];
const PERIOD_ORDER: SortKey[] = [
  { sql: 'date_from', type: 'date' },
  { sql: 'name', type: 'text' },
  { sql: 'id', type: 'uuid' },
];
const OVERRIDE_ORDER: SortKey[] = [
  { sql: 'date', type: 'date' },
  { sql: 'category_id', type: 'uuid' },
  { sql: 'id', type: 'uuid' },
];

export const tariffsRepository = {
  ...hotelTable<Tariff, TariffInput>('tariffs'),
  async list(db: DbOrTrx, hotelId: string, filter: { is_active?: boolean }, page: PageRequest): Promise<Page<Tariff>> {
    const query = db('tariffs').select('*').where({ hotel_id: hotelId });
    if (filter.is_active !== undefined) query.where({ is_active: filter.is_active });
    return pageOf(db, query, TARIFF_ORDER, page);
  },
};

export const periodsRepository = {
  ...hotelTable<PeriodRow, Partial<Pick<PeriodRow, 'name' | 'date_from' | 'date_to'>>>('rate_periods'),
  async list(db: DbOrTrx, hotelId: string, window: DateWindow, page: PageRequest): Promise<Page<PeriodRow>> {
    const query = db('rate_periods').select('*').where({ hotel_id: hotelId });
    if (window.from) query.where('date_to', '>=', window.from);
    if (window.to) query.where('date_from', '<=', window.to);
    if (window.category_id) {
      query.whereIn(
        'id',
        db('rate_period_prices').select('period_id').where({ hotel_id: hotelId, category_id: window.category_id }),
      );
    }
    return pageOf(db, query, PERIOD_ORDER, page);
  },
  async prices(
    db: DbOrTrx,
    hotelId: string,
    periodIds: string[],
  ): Promise<(PeriodCategoryPrice & { period_id: string })[]> {
    if (periodIds.length === 0) return [];
    return db('rate_period_prices')
      .select('period_id', 'category_id', 'price', 'hourly_price')
      .where({ hotel_id: hotelId })
      .whereIn('period_id', periodIds)
      .orderBy('category_id');
  },
  /**
   * Those of `categoryIds` that are not categories of this hotel. The overlap constraint spans every hotel, so a
   * foreign category must be refused before the prices are written (else it collides with that hotel's periods).
   */
  async foreignCategories(db: DbOrTrx, hotelId: string, categoryIds: string[]): Promise<string[]> {
    if (categoryIds.length === 0) return [];
    const rows: { id: string }[] = await db('room_categories')
      .where({ hotel_id: hotelId })
      .whereIn('id', categoryIds)
      .select('id');
    const own = new Set(rows.map((row) => row.id));
    return categoryIds.filter((id) => !own.has(id));
  },
  /** Replaces the period's prices; each row carries the period's dates so the exclusion constraint can see overlaps. */
  async replacePrices(db: DbOrTrx, hotelId: string, period: PeriodRow, prices: PeriodCategoryPrice[]): Promise<void> {
    await db('rate_period_prices').where({ hotel_id: hotelId, period_id: period.id }).delete();
    if (prices.length === 0) return;
    await db('rate_period_prices').insert(
      prices.map((price) => ({
        hotel_id: hotelId,
        period_id: period.id,
        category_id: price.category_id,
        price: price.price ?? null,
        hourly_price: price.hourly_price ?? null,
        dates: db.raw("daterange(?::date, ?::date, '[]')", [period.date_from, period.date_to]),
      })),
    );
  },
  /** The other periods that already price one of these categories on a date of the span. */
  async clashes(
    db: DbOrTrx,
    hotelId: string,
    span: { from: string; to: string; categoryIds: string[]; exceptId?: string },
  ) {
    const query = db('rate_period_prices as p')
      .join('rate_periods as r', 'r.id', 'p.period_id')
      .join('room_categories as c', 'c.id', 'p.category_id')
      .select('r.name as period_name', 'r.date_from', 'r.date_to', 'c.name as category_name')
      .where('p.hotel_id', hotelId)
      .whereIn('p.category_id', span.categoryIds)
      .whereRaw("p.dates && daterange(?::date, ?::date, '[]')", [span.from, span.to]);
    if (span.exceptId) query.whereNot('p.period_id', span.exceptId);
    return query as Promise<{ period_name: string; date_from: string; date_to: string; category_name: string }[]>;
  },
};

export const overridesRepository = {
  async list(db: DbOrTrx, hotelId: string, window: DateWindow, page: PageRequest): Promise<Page<RateOverride>> {
    const query = db('rate_overrides').select('*').where({ hotel_id: hotelId });
    if (window.from) query.where('date', '>=', window.from);
    if (window.to) query.where('date', '<=', window.to);
    if (window.category_id) query.where({ category_id: window.category_id });
    return pageOf(db, query, OVERRIDE_ORDER, page);
  },
  async upsert(
    db: DbOrTrx,
    hotelId: string,
    rows: {
      category_id: string;
      date: string;
      price: OverrideInput['price'];
      hourly_price: OverrideInput['hourly_price'];
    }[],
  ): Promise<RateOverride[]> {
    return (
      db<RateOverride>('rate_overrides')
        .insert(rows.map((row) => ({ ...row, hotel_id: hotelId })))
        .onConflict(['category_id', 'date'])
        .merge({
          price: db.raw('excluded.price'),
          hourly_price: db.raw('excluded.hourly_price'),
          updated_at: db.fn.now(),
        })
        // The (category, date) key spans every hotel: never replace another hotel's row.
        .where('rate_overrides.hotel_id', hotelId)
        .returning('*')
    );
  },
  async delete(db: DbOrTrx, hotelId: string, id: string): Promise<boolean> {
    return (await db('rate_overrides').where({ hotel_id: hotelId, id }).delete()) > 0;
  },
};

/** What a quote of one category over [from, to] prices its nights from. */
export interface CategoryPriceRows {
  periods: {
    period_id: string;
    date_from: string;
    date_to: string;
    price: string | null;
    hourly_price: string | null;
  }[];
  overrides: { id: string; date: string; price: string | null; hourly_price: string | null }[];
}

/**
 * The seasonal prices and the date overrides of one category that touch [from, to], in one round trip (money as
 * text, so amounts keep their exact spelling).
 */
export async function categoryPriceRows(
  db: DbOrTrx,
  hotelId: string,
  categoryId: string,
  from: string,
  to: string,
): Promise<CategoryPriceRows> {
  const { rows } = await db.raw<{ rows: CategoryPriceRows[] }>(
    `SELECT
       (SELECT coalesce(json_agg(json_build_object('period_id', r.id, 'date_from', r.date_from, 'date_to', r.date_to,
                 'price', p.price::text, 'hourly_price', p.hourly_price::text)), '[]')
          FROM rate_period_prices p JOIN rate_periods r ON r.id = p.period_id
         WHERE p.hotel_id = :hotelId AND p.category_id = :categoryId
           AND p.dates && daterange(:from::date, :to::date, '[]')) AS periods,
       (SELECT coalesce(json_agg(json_build_object('id', o.id, 'date', o.date,
                 'price', o.price::text, 'hourly_price', o.hourly_price::text)), '[]')
          FROM rate_overrides o
         WHERE o.hotel_id = :hotelId AND o.category_id = :categoryId AND o.date BETWEEN :from AND :to) AS overrides`,
    { hotelId, categoryId, from, to },
  );
  return rows[0];
}
