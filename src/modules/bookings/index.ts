export type { BookingsService } from './bookings.service';
export type { Booking, BookingCharge, BookingChargeInput, BookingChargeKind, BookingStatus } from './bookings.types';
export { offersQuery, type CategoryOffer, type Offers, type OffersQuery } from './bookings.offers';
export { inHouse } from './bookings.rules';
