import type { Request } from 'express';
import { DEFAULT_RESTRICTIONS, RESTRICTION_FIELDS, type AriKind } from './ari';
import { daysBetween, eachDate, isIsoDate, MAX_DAYS_AHEAD } from './dates';
import { badRequest } from './errors';
import type { Property } from './state';

/** Read-only values of a rate plan (the fake sets neither: no offset, no cap). */
const READ_ONLY = { availability_offset: 0, max_availability: null } as const;
const READABLE = ['availability', ...RESTRICTION_FIELDS, ...(Object.keys(READ_ONLY) as (keyof typeof READ_ONLY)[])];
type Readable = (typeof READABLE)[number];

/**
 * What the channel holds, as GET /availability (room type -> date -> rooms) and GET /restrictions (rate plan ->
 * date -> the fields named in `filter[restrictions]`) answer it: every date of `filter[date]` or of
 * `filter[date][gte]`..`filter[date][lte]`, Channex's defaults where nothing was pushed.
 */
export function readAri(kind: AriKind, request: Request, property: Property) {
  const dates = datesOf(request);
  if (kind === 'availability') {
    return Object.fromEntries(
      [...property.roomTypes.keys()].map((id) => [id, byDate(dates, (date) => availabilityOf(property, id, date))]),
    );
  }
  const fields = fieldsOf(request);
  return Object.fromEntries(
    [...property.ratePlans.values()].map((plan) => [
      plan.id,
      byDate(dates, (date) => {
        const held = { ...DEFAULT_RESTRICTIONS, ...property.restrictions.get(plan.id)?.get(date) };
        const values: Record<string, unknown> = { ...held, ...READ_ONLY, min_stay: held.min_stay_arrival };
        values.availability = availabilityOf(property, plan.room_type_id, date);
        if (property.soldOutStopSell && values.availability === 0) values.stop_sell = true;
        return Object.fromEntries(fields.map((field) => [field, values[field]]));
      }),
    ]),
  );
}

function availabilityOf(property: Property, roomTypeId: string, date: string): number {
  return property.availability.get(roomTypeId)?.get(date) ?? 0;
}

function byDate<T>(dates: string[], value: (date: string) => T): Record<string, T> {
  return Object.fromEntries(dates.map((date) => [date, value(date)]));
}

function datesOf(request: Request): string[] {
  const single = request.query['filter[date]'];
  const [from, to] =
    single === undefined ? [request.query['filter[date][gte]'], request.query['filter[date][lte]']] : [single, single];
  if (!isIsoDate(from) || !isIsoDate(to)) {
    throw badRequest(['filter[date]: give filter[date] or filter[date][gte] and filter[date][lte]']);
  }
  if (from > to || daysBetween(from, to) > MAX_DAYS_AHEAD) {
    throw badRequest([`filter[date]: a range of at most ${MAX_DAYS_AHEAD} days, gte before lte`]);
  }
  return eachDate(from, to);
}

function fieldsOf(request: Request): Readable[] {
  const raw = request.query['filter[restrictions]'];
  const fields = typeof raw === 'string' ? raw.split(',').map((field) => field.trim()) : [];
  if (fields.length === 0 || !fields.every((field) => (READABLE as readonly string[]).includes(field))) {
    throw badRequest([`filter[restrictions]: a comma-separated list of ${READABLE.join(', ')}`]);
  }
  return fields as Readable[];
}
