import { defineSignal } from '@temporalio/workflow';

/** The booking workflows' contract, imported by the bookings module (which implements the activities) and them. */

export type BookingLifecycleStatus = 'inquiry' | 'confirmed' | 'checked_in' | 'checked_out' | 'cancelled';

export interface BookingWorkflowInput {
  hotelId: string;
  bookingId: string;
  status: BookingLifecycleStatus;
}

/** Why a booking changed status: by staff, by one of the background jobs, or by its online payment (or its absence). */
export interface BookingStatusChange {
  status: BookingLifecycleStatus;
  reason: 'manual' | 'no_show' | 'auto_checkout' | 'online_payment' | 'payment_timeout';
}

export type BookingAnnouncement = { event: 'created' } | ({ event: 'status' } & BookingStatusChange);

export const bookingWorkflowIds = {
  booking: (bookingId: string) => `booking:${bookingId}`,
};

export const bookingStatusSignal = defineSignal<[BookingStatusChange]>('statusChanged');

/** A booking a background job found due (no-show or overdue stay). */
export interface DueBookingRef {
  hotelId: string;
  hotelSlug: string;
  bookingId: string;
}

export interface BookingActivities {
  /** The notifications of a creation or status change; returns how many were made (each at most once). */
  announceBooking(hotelId: string, bookingId: string, announcement: BookingAnnouncement): Promise<number>;
  findNoShows(): Promise<DueBookingRef[]>;
  cancelNoShow(due: DueBookingRef): Promise<string>;
  findOverdueStays(): Promise<DueBookingRef[]>;
  autoCheckOut(due: DueBookingRef): Promise<string>;
}

export type BookingWorkflow = (input: BookingWorkflowInput) => Promise<string>;
