import { rentalsFixtures } from './rentals.fixtures';
import { defineModule } from '../../platform/modules';
import { rentalBookingCreated, rentalBookingUpdated } from './rentals.events';
import { rentalBookingsRepository, rentalObjectsRepository } from './rentals.repository';
import { rentalsRoutes } from './rentals.routes';
import { createRentalsService, type RentalsDependencies } from './rentals.service';
import { erasedBy } from '../../platform/personal-data';

/** Rental objects (tennis court, sauna, conference hall...) and their bookings by the hour or by the day. */
export const rentalsModule = defineModule({
  name: 'rentals',
  fixtures: rentalsFixtures,
  uses: ['hotels'],
  personalData: [erasedBy('rental_bookings', 'rental_bookings', rentalBookingsRepository.eraseGuests)],
  create: ({ db }, deps: RentalsDependencies) => createRentalsService(db, deps),
  events: [rentalBookingCreated, rentalBookingUpdated],
  routes: (rentals) => rentalsRoutes(rentals),
  onHotelCreated: (_rentals, trx, hotelId) => rentalObjectsRepository.insertTemplates(trx, hotelId),
});
