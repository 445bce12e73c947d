export type { BookingsService } from './bookings.service';
export type { Booking, BookingStatus } from './bookings.types';
