import type { BookingJobs } from '../src/modules/bookings';
import type { BookingAnnouncement } from '../workflows/messages';

export interface DueBookingRef {
  hotelId: string;
  hotelSlug: string;
  bookingId: string;
}

export function createBookingActivities(jobs: BookingJobs) {
  return {
    async announceBooking(hotelId: string, bookingId: string, announcement: BookingAnnouncement): Promise<number> {
      return jobs.announce(hotelId, bookingId, announcement);
    },
    async findNoShows(): Promise<DueBookingRef[]> {
      return jobs.dueNoShows();
    },
    async cancelNoShow(due: DueBookingRef): Promise<string> {
      return jobs.cancelNoShow(due);
    },
    async findOverdueStays(): Promise<DueBookingRef[]> {
      return jobs.dueCheckouts();
    },
    async autoCheckOut(due: DueBookingRef): Promise<string> {
      return jobs.autoCheckOut(due);
    },
  };
}

export type BookingActivities = ReturnType<typeof createBookingActivities>;
