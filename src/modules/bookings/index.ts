export type { BookingsService } from './bookings.service';
export { amountDue, presentBooking } from './bookings.present';
export { bookingSchema } from './bookings.schemas';
export type {
  Booking,
  BookingCharge,
  BookingChargeInput,
  BookingChargeKind,
  BookingInput,
  BookingStatus,
} from './bookings.types';
export { offersQuery, type CategoryOffer, type Offers, type OffersQuery } from './bookings.offers';
export { inHouse } from './bookings.rules';
export type { StayFollower } from './bookings.outside';
export type { LedgerEntry, LedgerFollower } from './bookings.ledger';
export { hotelToday } from './bookings.offers';
export type { HeldStay, InventoryHolds } from './bookings.holds';
