import type { TimelineDependencies } from './timeline.dependencies';

/** A read done at most once per request, on first use. */
function once<T>(read: () => Promise<T>): () => Promise<T> {
  let done: Promise<T> | undefined;
  return () => (done ??= read());
}

/**
 * The reads several parts of one timeline need (the booking, its deposits, its online payments): each made once per
 * request and shared by the sources and the upcoming part.
 */
export function sharedReads(deps: TimelineDependencies, hotelId: string, bookingId: string, limit: number) {
  return {
    booking: once(() => deps.bookings.get(hotelId, bookingId)),
    deposits: once(() => deps.deposits.ofBooking(hotelId, bookingId, limit)),
    onlinePayments: once(() => deps.billing.onlinePayments.list(hotelId, bookingId)),
  };
}

export type SharedReads = ReturnType<typeof sharedReads>;
