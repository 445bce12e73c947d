export { createBookingsService, presentBooking, type BookingsService } from './bookings.service';
export { createBookingJobs, type BookingJobs } from './bookings.jobs';
export { bookingsRoutes } from './bookings.routes';
export type { Booking, BookingStatus } from './bookings.types';
