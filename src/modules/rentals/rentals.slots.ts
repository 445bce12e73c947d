import type { Db } from '../../platform/db/knex';
import { BusinessRuleError, NotFoundError } from '../../platform/errors';
import type { HotelsService } from '../hotels';
import { rentalMessages } from './rentals.messages';
import { rentalBookingsRepository, rentalObjectsRepository } from './rentals.repository';
import { HOUR_MS, hotelTimeZone, MINUTE_MS } from './rentals.schedule';

export interface FreeSlot {
  start_at: Date;
  end_at: Date;
}

/**
 * The hours of a hotel-local day (YYYY-MM-DD) where a one-hour booking of an active object fits, its buffer after it
 * included, from now on: what the widget offers. Consecutive free hours make longer bookings.
 */
export function createFreeSlots(db: Db, hotels: Pick<HotelsService, 'find'>) {
  return async function freeSlots(hotelId: string, objectId: string, day: string): Promise<FreeSlot[]> {
    const object = await rentalObjectsRepository.find(db, hotelId, objectId);
    if (!object) throw new NotFoundError(rentalMessages.objectNotFound);
    if (!object.is_active) throw new BusinessRuleError(rentalMessages.draft);
    const timeZone = await hotelTimeZone(hotels, db, hotelId);
    const opening = await rentalBookingsRepository.openingSpan(db, timeZone, day, day, object);
    const bufferMs = object.buffer_minutes * MINUTE_MS;
    const holders = await rentalBookingsRepository.holders(db, hotelId, objectId, {
      start: opening.start,
      end: new Date(opening.end.getTime() + bufferMs),
    });
    const slots: FreeSlot[] = [];
    for (let start = opening.start.getTime(); start + HOUR_MS <= opening.end.getTime(); start += HOUR_MS) {
      const heldUntil = start + HOUR_MS + bufferMs;
      const taken = holders.some((held) => held.start_at.getTime() < heldUntil && held.blocked_until.getTime() > start);
      if (start >= Date.now() && !taken) slots.push({ start_at: new Date(start), end_at: new Date(start + HOUR_MS) });
    }
    return slots;
  };
}
