export type { RentalsService } from './rentals.service';
export type { RentalCharge } from './rentals.charges';
export type { FreeSlot } from './rentals.slots';
export type {
  PublicRentalObject,
  RentalActor,
  RentalBooking,
  RentalBookingInput,
  RentalBookingSource,
  RentalObject,
} from './rentals.types';
export { RENTAL_TEMPLATES } from './rentals.templates';
export { createRentalBookingBody } from './rentals.schemas';
