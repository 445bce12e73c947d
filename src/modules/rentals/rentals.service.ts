import type { Db } from '../../platform/db/knex';
import type { HotelsService } from '../hotels';
import { createRentalBookings } from './rentals.bookings';
import { createRentalChargeFollowers } from './rentals.charges';
import { createRentalObjects } from './rentals.objects';
import { rentalObjectsRepository } from './rentals.repository';
import { createFreeSlots } from './rentals.slots';

export interface RentalsDependencies {
  hotels: Pick<HotelsService, 'find'>;
}

export function createRentalsService(db: Db, deps: RentalsDependencies) {
  const charges = createRentalChargeFollowers();
  return {
    /** The module keeping the stays' books (the folios) follows what rentals charged to a room come to. */
    followCharges: charges.add,
    objects: createRentalObjects(db),
    /** What the public widget offers: the active objects by `sort_order`, their public fields only. */
    activeObjects: (hotelId: string) => rentalObjectsRepository.active(db, hotelId),
    bookings: createRentalBookings(db, deps.hotels, charges),
    freeSlots: createFreeSlots(db, deps.hotels),
  };
}

export type RentalsService = ReturnType<typeof createRentalsService>;
