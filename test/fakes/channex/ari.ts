import { addDays, eachDate, isIsoDate, isoDay, isWeekday, MAX_DAYS_AHEAD, weekday } from './dates';
import type { DayRestrictions, FakeChannexState, Property } from './state';

export type AriKind = 'availability' | 'restrictions';

/** One refused value, answered under `meta.warnings` of a 200: the value's keys and why. */
export interface AriWarning {
  property_id?: unknown;
  room_type_id?: unknown;
  rate_plan_id?: unknown;
  date?: unknown;
  date_from?: unknown;
  date_to?: unknown;
  warning: string;
}

type Value = Record<string, unknown>;

const RESTRICTION_FIELDS = [
  'rate',
  'min_stay_arrival',
  'min_stay_through',
  'min_stay',
  'max_stay',
  'closed_to_arrival',
  'closed_to_departure',
  'stop_sell',
] as const;

const DEFAULT_RESTRICTIONS: DayRestrictions = {
  rate: '0.00',
  min_stay_arrival: 1,
  min_stay_through: 1,
  max_stay: 0,
  closed_to_arrival: false,
  closed_to_departure: false,
  stop_sell: false,
};

/**
 * Applies the values in their order, each to its property's state, and answers the warnings of those refused
 * (a value is all or nothing). `properties` are those the API key opens.
 */
export function applyAri(state: FakeChannexState, kind: AriKind, values: Value[], properties: Set<string>) {
  const warnings: AriWarning[] = [];
  for (const value of values) {
    const problem = check(state, kind, value, properties);
    if (problem) {
      warnings.push({ ...keysOf(kind, value), warning: problem });
      continue;
    }
    const property = state.property(value.property_id as string)!;
    const dates = datesOf(value);
    if (kind === 'availability') applyAvailability(property, value, dates);
    else applyRestrictions(property, value, dates);
  }
  return warnings;
}

function keysOf(kind: AriKind, value: Value): Omit<AriWarning, 'warning'> {
  const target = kind === 'availability' ? 'room_type_id' : 'rate_plan_id';
  const keys: Omit<AriWarning, 'warning'> = { property_id: value.property_id, [target]: value[target] };
  for (const key of ['date', 'date_from', 'date_to'] as const) if (key in value) keys[key] = value[key];
  return keys;
}

function check(state: FakeChannexState, kind: AriKind, value: Value, properties: Set<string>): string | undefined {
  const { property_id: propertyId } = value;
  const property =
    typeof propertyId === 'string' && properties.has(propertyId) ? state.property(propertyId) : undefined;
  if (!property) return 'property_id: not found';
  const dateProblem = checkDates(state.now(property), value);
  if (dateProblem) return dateProblem;
  return kind === 'availability' ? checkAvailability(property, value) : checkRestrictions(property, value);
}

function checkDates(now: number, value: Value): string | undefined {
  const single = 'date' in value;
  if (single === ('date_from' in value || 'date_to' in value)) return 'date: give either date or date_from and date_to';
  const [from, to] = single ? [value.date, value.date] : [value.date_from, value.date_to];
  if (!isIsoDate(from) || !isIsoDate(to)) return `${single ? 'date' : 'date_from, date_to'}: must be YYYY-MM-DD dates`;
  if (from > to) return 'date_to: must not be before date_from';
  // A day of slack: a hotel west of UTC still pushes its own today.
  if (from < addDays(isoDay(now), -1)) return 'date: must not be in the past';
  if (to > addDays(isoDay(now), MAX_DAYS_AHEAD)) return `date: must be within ${MAX_DAYS_AHEAD} days from today`;
  return undefined;
}

function checkAvailability(property: Property, value: Value): string | undefined {
  if (typeof value.room_type_id !== 'string' || !property.roomTypes.has(value.room_type_id)) {
    return 'room_type_id: not found';
  }
  const { availability } = value;
  if (!Number.isInteger(availability) || (availability as number) < 0) {
    return 'availability: must be an integer, 0 or more';
  }
  return undefined;
}

function checkRestrictions(property: Property, value: Value): string | undefined {
  if (typeof value.rate_plan_id !== 'string' || !property.ratePlans.has(value.rate_plan_id)) {
    return 'rate_plan_id: not found';
  }
  if ('days' in value && (!Array.isArray(value.days) || value.days.length === 0 || !value.days.every(isWeekday))) {
    return 'days: must be a list of mo, tu, we, th, fr, sa, su';
  }
  if (!RESTRICTION_FIELDS.some((field) => field in value)) return 'value: no restriction given';
  if ('rate' in value && parseRate(value.rate) === undefined) {
    return 'rate: must be a decimal string ("4500.00") or an integer of minor units, 0 or more';
  }
  for (const field of ['min_stay_arrival', 'min_stay_through', 'min_stay'] as const) {
    if (field in value && (!Number.isInteger(value[field]) || (value[field] as number) < 1)) {
      return `${field}: must be an integer, 1 or more`;
    }
  }
  if ('max_stay' in value && (!Number.isInteger(value.max_stay) || (value.max_stay as number) < 0)) {
    return 'max_stay: must be an integer, 0 (none) or more';
  }
  for (const field of ['closed_to_arrival', 'closed_to_departure', 'stop_sell'] as const) {
    if (field in value && typeof value[field] !== 'boolean') return `${field}: must be true or false`;
  }
  return undefined;
}

/** A rate as Channex takes it: a decimal string, or an integer of minor units; answered as a decimal string. */
export function parseRate(rate: unknown): string | undefined {
  if (typeof rate === 'string' && /^\d{1,9}(\.\d{1,2})?$/.test(rate)) return Number(rate).toFixed(2);
  if (typeof rate === 'number' && Number.isSafeInteger(rate) && rate >= 0) return (rate / 100).toFixed(2);
  return undefined;
}

function datesOf(value: Value): string[] {
  const from = (value.date ?? value.date_from) as string;
  const dates = eachDate(from, (value.date ?? value.date_to) as string);
  const days = value.days as string[] | undefined;
  return days ? dates.filter((date) => days.includes(weekday(date))) : dates;
}

function applyAvailability(property: Property, value: Value, dates: string[]): void {
  const roomTypeId = value.room_type_id as string;
  const byDate = property.availability.get(roomTypeId) ?? new Map<string, number>();
  for (const date of dates) byDate.set(date, value.availability as number);
  property.availability.set(roomTypeId, byDate);
}

function applyRestrictions(property: Property, value: Value, dates: string[]): void {
  const ratePlanId = value.rate_plan_id as string;
  const byDate = property.restrictions.get(ratePlanId) ?? new Map<string, DayRestrictions>();
  const change: Partial<DayRestrictions> = {};
  if ('rate' in value) change.rate = parseRate(value.rate)!;
  // min_stay sets the property's kind of minimum stay; the fake's properties count it both ways.
  if ('min_stay' in value) change.min_stay_arrival = change.min_stay_through = value.min_stay as number;
  for (const field of RESTRICTION_FIELDS) {
    if (field !== 'rate' && field !== 'min_stay' && field in value) Object.assign(change, { [field]: value[field] });
  }
  for (const date of dates) byDate.set(date, { ...(byDate.get(date) ?? DEFAULT_RESTRICTIONS), ...change });
  property.restrictions.set(ratePlanId, byDate);
}
