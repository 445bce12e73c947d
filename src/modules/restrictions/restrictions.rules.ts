import { daysBetween } from '../../platform/http/schemas';
import {
  FLAG_FIELDS,
  RESTRICTION_FIELDS,
  type BrokenRestriction,
  type RestrictedStay,
  type RestrictionField,
  type RestrictionNight,
} from './restrictions.types';

type Rule = (value: number | boolean, stay: { nights: number; lead: number }) => boolean;

/** When each restriction refuses a stay (given its value on the night it is read on). */
const BREAKS: Record<RestrictionField, Rule> = {
  min_stay_arrival: (value, { nights }) => nights < Number(value),
  min_stay_through: (value, { nights }) => nights < Number(value),
  max_stay: (value, { nights }) => nights > Number(value),
  closed_to_arrival: (value) => value === true,
  closed_to_departure: (value) => value === true,
  stop_sell: (value) => value === true,
  min_advance_days: (value, { lead }) => lead < Number(value),
  max_advance_days: (value, { lead }) => lead > Number(value),
};

/** Which night of a stay each restriction is read on: its arrival, every night it holds, or its departure day. */
const READ_ON: Record<RestrictionField, 'arrival' | 'stay' | 'departure'> = {
  min_stay_arrival: 'arrival',
  min_stay_through: 'stay',
  max_stay: 'arrival',
  closed_to_arrival: 'arrival',
  closed_to_departure: 'departure',
  stop_sell: 'stay',
  min_advance_days: 'arrival',
  max_advance_days: 'arrival',
};

function readsOn(field: RestrictionField, night: string, stay: RestrictedStay): boolean {
  const on = READ_ON[field];
  if (on === 'arrival') return night === stay.check_in;
  if (on === 'departure') return night === stay.check_out;
  return night >= stay.check_in && night < stay.check_out;
}

const applies = (row: RestrictionNight, stay: Pick<RestrictedStay, 'category_id' | 'tariff_id'>) =>
  row.category_id === stay.category_id && (row.tariff_id === null || row.tariff_id === stay.tariff_id);

/** A restriction a stay breaks, with the category and tariff (none: category-wide) of the row that sets it. */
export type Breach = BrokenRestriction & { category_id: string; tariff_id: string | null };

/** Every restriction a stay breaks, one per row and field (a category-wide row and one of the stay's tariff both). */
export function breachesOf(stay: RestrictedStay, rows: RestrictionNight[], today: string): Breach[] {
  const facts = { nights: daysBetween(stay.check_in, stay.check_out), lead: daysBetween(today, stay.check_in) };
  return rows
    .filter((row) => applies(row, stay))
    .flatMap((row) =>
      RESTRICTION_FIELDS.filter((field) => {
        const value = row[field];
        return value !== null && value !== false && readsOn(field, row.night, stay) && BREAKS[field](value, facts);
      }).map((field) => ({
        restriction: field,
        night: row.night,
        value: row[field] as number | boolean,
        category_id: row.category_id,
        tariff_id: row.tariff_id,
      })),
    );
}

/** Restrictions that refuse more stays the lower they are; every other count the higher it is. */
const LOWER_IS_STRICTER: readonly RestrictionField[] = ['max_stay', 'max_advance_days'];

/** Whether `value` refuses every stay `other` refuses, for the same restriction (two flags set: equally). */
function asStrict(field: RestrictionField, value: number | boolean, other: number | boolean): boolean {
  if (typeof value === 'boolean' || typeof other === 'boolean') return true;
  return LOWER_IS_STRICTER.includes(field) ? value <= other : value >= other;
}

/**
 * The restrictions in force on one night for a category and tariff, as a stay would meet them: of a category-wide
 * row and the tariff's, the stricter per field (by the same order as a refusal's); null (a flag: false) where none is set.
 * The channel sync reads the values it pushes through this.
 */
export function inForce(
  rows: RestrictionNight[],
  stay: Pick<RestrictedStay, 'category_id' | 'tariff_id'>,
): Record<RestrictionField, number | boolean | null> {
  const values = Object.fromEntries(
    RESTRICTION_FIELDS.map((field) => [field, (FLAG_FIELDS as readonly string[]).includes(field) ? false : null]),
  ) as Record<RestrictionField, number | boolean | null>;
  for (const row of rows.filter((item) => applies(item, stay)))
    for (const field of RESTRICTION_FIELDS) {
      const value = row[field];
      const known = values[field];
      if (value === null || value === false) continue;
      if (known === null || known === false || !asStrict(field, known, value)) values[field] = value;
    }
  return values;
}

/**
 * The restrictions as a refusal names them: one per field and night (of a category-wide row and a tariff's breaking
 * the same, the stricter), by night then field.
 */
export function presented(breaches: Breach[]): BrokenRestriction[] {
  const strictest = new Map<string, BrokenRestriction>();
  for (const { restriction, night, value } of breaches) {
    const key = `${night} ${String(RESTRICTION_FIELDS.indexOf(restriction)).padStart(2, '0')}`;
    const known = strictest.get(key);
    if (!known || !asStrict(restriction, known.value, value)) strictest.set(key, { restriction, night, value });
  }
  return [...strictest.keys()].sort().map((key) => strictest.get(key)!);
}

/**
 * The restrictions a stay breaks, by night then field. A category-wide row and a row of the stay's tariff both apply
 * (the stricter wins); the booking window counts days from the hotel's `today` to the arrival.
 */
export function brokenBy(stay: RestrictedStay, rows: RestrictionNight[], today: string): BrokenRestriction[] {
  return presented(breachesOf(stay, rows, today));
}

const keyOf = (item: Breach) => `${item.category_id}|${item.tariff_id ?? ''}|${item.restriction}|${item.night}`;

/**
 * Those of `after` that `before` did not break already, on the same category, tariff row, restriction and night,
 * at least as strictly (a change is refused only for what it breaks anew: another category stop-sold on the same
 * night, or a tariff's stricter value, is new).
 */
export function newlyBroken(after: Breach[], before: Breach[]): Breach[] {
  const known = new Map(before.map((item) => [keyOf(item), item.value]));
  return after.filter((item) => {
    const value = known.get(keyOf(item));
    return value === undefined || !asStrict(item.restriction, value, item.value);
  });
}

/** A change that only removes nights: the same category and tariff, no night outside those the stay held. */
const onlyShortens = (stay: RestrictedStay, before: RestrictedStay) =>
  stay.category_id === before.category_id &&
  stay.tariff_id === before.tariff_id &&
  stay.check_in >= before.check_in &&
  stay.check_out <= before.check_out;

/** Of a change's breaches, those read on every night held (stop-sell, minimum through) on a night it adds. */
function onAddedNights(after: Breach[], before: RestrictedStay): Breach[] {
  const held = (item: Breach) =>
    item.night >= before.check_in &&
    item.night < before.check_out &&
    item.category_id === before.category_id &&
    (item.tariff_id === null || item.tariff_id === before.tariff_id);
  return after.filter((item) => READ_ON[item.restriction] === 'stay' && !held(item));
}

/**
 * What a change of a stay breaks anew. A change that only shortens it, or any change of an in-house stay (its
 * arrival is behind it), is checked only on the nights it adds: the arrival-night rules and `closed_to_departure`
 * never refuse a guest leaving earlier.
 */
export function brokenAnew(
  stay: RestrictedStay,
  before: RestrictedStay,
  rows: RestrictionNight[],
  { today, inHouse }: { today: string; inHouse: boolean },
): Breach[] {
  const after = breachesOf(stay, rows, today);
  const checked = inHouse || onlyShortens(stay, before) ? onAddedNights(after, before) : after;
  return newlyBroken(checked, breachesOf(before, rows, today));
}
