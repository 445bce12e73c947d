export type { RentalsService } from './rentals.service';
export type {
  PublicRentalObject,
  RentalActor,
  RentalBooking,
  RentalBookingInput,
  RentalBookingSource,
  RentalObject,
} from './rentals.types';
export { RENTAL_TEMPLATES } from './rentals.templates';
