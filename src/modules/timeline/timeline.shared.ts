import type { TimelineDependencies } from './timeline.dependencies';

/** A read done at most once per request, on first use. */
function once<T>(read: () => Promise<T>): () => Promise<T> {
  let done: Promise<T> | undefined;
  return () => (done ??= read());
}

/**
 * The reads several parts of one timeline need (the booking, its entries in the audit log, its deposits, its online
 * payments): each made once per request and shared by the sources and the upcoming part.
 */
export function sharedReads(deps: TimelineDependencies, hotelId: string, bookingId: string, limit: number) {
  return {
    booking: once(() => deps.bookings.get(hotelId, bookingId)),
    /** The booking row's latest `limit` entries in the audit log, oldest first. */
    changes: once(() => deps.audit.forResource(hotelId, 'bookings', bookingId, limit)),
    deposits: once(() => deps.deposits.ofBooking(hotelId, bookingId, limit)),
    // The booking is read first (404 when not the hotel's): its online payments without reading it again.
    onlinePayments: once(() => deps.billing.onlinePayments.ofReadBooking(hotelId, bookingId)),
  };
}

export type SharedReads = ReturnType<typeof sharedReads>;
