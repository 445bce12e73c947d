import type { Db, DbOrTrx } from '../../platform/db/knex';
import { refusalsAs } from '../../platform/db/base-model';
import { transactionWithRetry } from '../../platform/db/retry';
import { BusinessRuleError, ForbiddenError, ValidationError } from '../../platform/errors';
import { HOTEL_MANAGEMENT, type Role } from '../../platform/http/roles';
import { restrictionsChanged, type RestrictionsChangedItem } from './restrictions.events';
import { restrictionsRepository as repository } from './restrictions.repository';
import { offeringFrom, withShifts, type Offering } from './restrictions.offering';
import { brokenAnew, breachesOf, presented } from './restrictions.rules';
import {
  RESTRICTION_FIELDS,
  type BrokenRestriction,
  type RestrictedStay,
  type RestrictionField,
  type RestrictionOverride,
  type RestrictionQuery,
  type RestrictionWrite,
} from './restrictions.types';

const BROKEN: Record<RestrictionField, (value: number | boolean, night: string) => string> = {
  min_stay_arrival: (value, night) => `При заезде ${night} проживание не короче ${value} ноч.`,
  min_stay_through: (value, night) => `Ночь ${night} продаётся только в проживании не короче ${value} ноч.`,
  max_stay: (value, night) => `При заезде ${night} проживание не длиннее ${value} ноч.`,
  closed_to_arrival: (_value, night) => `Заезд ${night} закрыт`,
  closed_to_departure: (_value, night) => `Выезд ${night} закрыт`,
  stop_sell: (_value, night) => `Продажи на ночь ${night} закрыты`,
  min_advance_days: (value, night) => `Заезд ${night} бронируется не позднее чем за ${value} дн.`,
  max_advance_days: (value, night) => `Заезд ${night} бронируется не ранее чем за ${value} дн.`,
};

export const restrictionMessages = {
  notFound: 'Категория не найдена',
  tariffNotFound: 'Тариф не найден',
  gone: 'Категория или тариф удалены во время записи: ничего не записано',
  dates: 'Дата окончания не может быть раньше даты начала',
  overrideRole: 'Обойти ограничения продаж может только управляющий отеля',
  broken: (item: BrokenRestriction) => BROKEN[item.restriction](item.value, item.night),
};

/**
 * A stay refused by restrictions: the code names the first one broken (`restriction_min_stay_arrival`), the message
 * its night; `restrictions` lists every one broken, with its night and value.
 */
export class RestrictionError extends BusinessRuleError {
  constructor(readonly broken: BrokenRestriction[]) {
    const messages = broken.map(restrictionMessages.broken);
    super(messages[0], messages, `restriction_${broken[0].restriction}`);
  }

  override toBody(): Record<string, unknown> {
    return { ...super.toBody(), restrictions: this.broken };
  }
}

const changedItem = (item: RestrictionWrite): RestrictionsChangedItem => ({
  category_id: item.category_id,
  tariff_id: item.tariff_id ?? null,
  from: item.from,
  to: item.to,
  fields: RESTRICTION_FIELDS.filter((field) => item[field] !== undefined),
});

const itemError = (index: number, field: string, message: string) =>
  new ValidationError(message, [{ path: `body.items.${index}.${field}`, message }]);

/** An override of the restrictions is management's. */
export const mayOverride = (role: Role): boolean => role === 'super_admin' || HOTEL_MANAGEMENT.includes(role);

/** Anyone else asking for an override is refused, whatever the stay. */
export function assertMayOverride(role: Role, override: boolean | undefined): void {
  if (override && !mayOverride(role)) throw new ForbiddenError(restrictionMessages.overrideRole);
}

/** What a stay is checked with: the hotel, the stay before a change (if any), and whether management overrides. */
export interface StayCheck {
  hotel: { id: string; timezone: string };
  stay: RestrictedStay;
  before?: RestrictedStay;
  /** The stay before the change is in house (checked in): only the nights a change adds are checked. */
  inHouse?: boolean;
  /** Asked for: by whom, and whether that actor may (`mayOverride`); refused here too, whoever the caller. */
  override?: { by: string | null; permitted: boolean };
}

export function createRestrictionsService(db: Db) {
  /** Refuses the items naming a category or tariff that is not this hotel's, before anything is written. */
  async function assertOwn(conn: DbOrTrx, hotelId: string, items: RestrictionWrite[]) {
    const tariffIds = items.flatMap((item) => (item.tariff_id ? [item.tariff_id] : []));
    const own = await repository.own(conn, hotelId, [...new Set(items.map((item) => item.category_id))], tariffIds);
    items.forEach((item, index) => {
      if (item.to < item.from) throw itemError(index, 'to', restrictionMessages.dates);
      if (!own.categories.has(item.category_id)) throw itemError(index, 'category_id', restrictionMessages.notFound);
      if (item.tariff_id && !own.tariffs.has(item.tariff_id))
        throw itemError(index, 'tariff_id', restrictionMessages.tariffNotFound);
    });
  }

  return {
    /**
     * Writes every item in order, in one transaction (all or nothing); answers the nights touched. A hotel's writes
     * run one after another (its lock first), so two of them over the same nights in another order cannot deadlock.
     */
    async write(hotelId: string, items: RestrictionWrite[]) {
      // Checked item by item first; the references catch a category or tariff deleted meanwhile.
      const refused = () => new ValidationError(restrictionMessages.gone);
      return refusalsAs({ foreignKey: refused }, () =>
        transactionWithRetry(db, async (trx) => {
          await repository.lockHotel(trx, hotelId);
          await assertOwn(trx, hotelId, items);
          let nights = 0;
          for (const item of items) nights += await repository.write(trx, hotelId, item);
          await restrictionsChanged.publish(trx, hotelId, { items: items.map(changedItem), nights });
          return { items: items.length, nights };
        }),
      );
    },

    /** The nights `from`..`to` holding a restriction, one entry per category, tariff and night. */
    async read(hotelId: string, query: RestrictionQuery) {
      if (query.to < query.from) throw new ValidationError(restrictionMessages.dates);
      return repository.nights(db, hotelId, query);
    },

    /**
     * Checks a stay (of nights; an hourly stay has none of these restrictions) in one query, in the caller's
     * transaction. A change is refused only for what it breaks that the stay before it did not (`brokenAnew`). Broken and not
     * overridden: a `RestrictionError`; overridden: the record the booking keeps; nothing broken: undefined.
     */
    async check(
      conn: DbOrTrx,
      { hotel, stay, before, inHouse, override }: StayCheck,
    ): Promise<RestrictionOverride | undefined> {
      if (override && !override.permitted) throw new ForbiddenError(restrictionMessages.overrideRole);
      const stays = before ? [stay, before] : [stay];
      const { today, nights } = await repository.forStays(conn, hotel.id, hotel.timezone, stays);
      const breaches = before
        ? brokenAnew(stay, before, nights, { today, inHouse: inHouse ?? false })
        : breachesOf(stay, nights, today);
      const broken = presented(breaches);
      if (broken.length === 0) return undefined;
      if (!override) throw new RestrictionError(broken);
      return { by: override.by, at: new Date().toISOString(), restrictions: broken };
    },

    /**
     * For answers that offer stays (availability, offers, quotes): the restrictions on the stays and on their shifts
     * by up to 3 days either way, read in one query, then judged in memory (`verdict`) by the same rules as `check`.
     */
    async offering(conn: DbOrTrx, hotel: StayCheck['hotel'], stays: RestrictedStay[]): Promise<Offering> {
      if (stays.length === 0) return offeringFrom([], '');
      const { today, nights } = await repository.forStays(conn, hotel.id, hotel.timezone, stays.map(withShifts));
      return offeringFrom(nights, today);
    },
  };
}

export type RestrictionsService = ReturnType<typeof createRestrictionsService>;
