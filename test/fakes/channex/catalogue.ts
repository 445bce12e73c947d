import type { Request } from 'express';
import { validationError } from './errors';
import type { Property, RatePlan, RoomType } from './state';

const DEFAULT_LIMIT = 10;
const MAX_LIMIT = 100;

/** Channex's paging: `pagination[page]` (from 1) and `pagination[limit]` (default 10, at most 100). */
export function paginate<T>(request: Request, items: T[]) {
  const page = positive(request.query['pagination[page]'], 1, 'pagination[page]');
  const limit = Math.min(positive(request.query['pagination[limit]'], DEFAULT_LIMIT, 'pagination[limit]'), MAX_LIMIT);
  return { items: items.slice((page - 1) * limit, page * limit), meta: { page, limit, total: items.length } };
}

function positive(raw: unknown, fallback: number, name: string): number {
  if (raw === undefined) return fallback;
  const value = typeof raw === 'string' && /^\d{1,6}$/.test(raw) ? Number(raw) : 0;
  if (value < 1) throw validationError({ [name]: ['must be a positive integer'] });
  return value;
}

export const resource = <T extends { id: string }>(type: string, attributes: T) => ({
  type,
  id: attributes.id,
  attributes,
});

export function propertyResource(property: Property) {
  return resource('property', {
    id: property.id,
    title: property.title,
    currency: property.currency,
    timezone: property.timezone,
    property_type: 'hotel',
    is_active: true,
  });
}

export function roomTypeResource(roomType: RoomType) {
  return {
    ...resource('room_type', roomType),
    relationships: { property: { data: { type: 'property', id: roomType.property_id } } },
  };
}

export function ratePlanResource(ratePlan: RatePlan) {
  return {
    ...resource('rate_plan', ratePlan),
    relationships: {
      property: { data: { type: 'property', id: ratePlan.property_id } },
      room_type: { data: { type: 'room_type', id: ratePlan.room_type_id } },
    },
  };
}
