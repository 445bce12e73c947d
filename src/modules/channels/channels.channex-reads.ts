import type { ChannexCall } from './channels.channex-call';
import type { ChannelCredentials } from './channels.credentials';
import {
  ChannelError,
  RATE_FIELDS,
  type DateRange,
  type HeldAvailability,
  type HeldRestrictions,
  type RateValues,
} from './channels.manager';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Channex's ARI reads (GET /availability and GET /restrictions, one call each: the property, the range as
 * `filter[date][gte|lte]`, for restrictions the fields a push sends): `data` is keyed by room type or rate plan, then
 * by date. Channex documents no paging and no span limit for them (it keeps ARI 730 days ahead; the sync's window is
 * 365). An answer of another shape is a refusal (recorded, staff told); a value of the wrong type is left out, so a
 * reconciliation counts it as differing and sends ours again.
 */
export function channexAriReads(call: ChannexCall) {
  async function read(credentials: ChannelCredentials, kind: string, range: DateRange, extra: object = {}) {
    const query = new URLSearchParams({
      'filter[property_id]': credentials.propertyId,
      'filter[date][gte]': range.date_from,
      'filter[date][lte]': range.date_to,
      ...extra,
    });
    const { data } = await call(credentials, 'GET', `/${kind}?${query}`);
    if (!isObject(data)) throw new ChannelError('refused', `Channex answered its ${kind} in an unknown shape`);
    return Object.entries(data).filter((entry): entry is [string, Record<string, unknown>] => isObject(entry[1]));
  }

  return {
    async readAvailability(credentials: ChannelCredentials, range: DateRange): Promise<HeldAvailability> {
      const items = await read(credentials, 'availability', range);
      return Object.fromEntries(
        items.map(([id, byDate]) => [
          id,
          Object.fromEntries(Object.entries(byDate).filter(([, count]) => Number.isInteger(count))) as Record<
            string,
            number
          >,
        ]),
      );
    },
    async readRestrictions(credentials: ChannelCredentials, range: DateRange): Promise<HeldRestrictions> {
      const items = await read(credentials, 'restrictions', range, { 'filter[restrictions]': RATE_FIELDS.join(',') });
      return Object.fromEntries(
        items.map(([id, byDate]) => [
          id,
          Object.fromEntries(
            Object.entries(byDate)
              .filter((entry): entry is [string, Record<string, unknown>] => isObject(entry[1]))
              .map(([date, values]) => [date, heldValues(values)]),
          ),
        ]),
      );
    },
  };
}

const count = (value: unknown) => (Number.isInteger(value) ? (value as number) : undefined);
const flag = (value: unknown) =>
  value === 1 || value === true ? true : value === 0 || value === false ? false : undefined;

/**
 * Each value as Channex may answer it, normalised to what a push sends (undefined: not of its type): flags as
 * booleans or 0/1, no maximum stay as null (a push's 0), the rate a decimal string.
 */
const HELD: { [F in keyof RateValues]: (value: unknown) => RateValues[F] | undefined } = {
  rate: (value) => (typeof value === 'string' ? value : undefined),
  min_stay_arrival: count,
  min_stay_through: count,
  max_stay: (value) => (value === null ? 0 : count(value)),
  closed_to_arrival: flag,
  closed_to_departure: flag,
  stop_sell: flag,
};

/** A night's values as the channel answered them, normalised, each kept only when of its type. */
function heldValues(values: Record<string, unknown>): Partial<RateValues> {
  return Object.fromEntries(
    RATE_FIELDS.map((field) => [field, HELD[field](values[field])]).filter(([, value]) => value !== undefined),
  );
}
