import type { BookingPaymentActivities } from '../../../workflows/contracts/booking-payments';
import type { OnlinePayments } from './billing.online';

/** The online payment workflow's activities: thin calls into the online payments' steps. */
export function onlinePaymentActivities(onlinePayments: OnlinePayments): BookingPaymentActivities {
  return {
    createBookingPayment: (hotelId, id) => onlinePayments.jobs.create(hotelId, id),
    syncBookingPayment: (hotelId, id) => onlinePayments.jobs.sync(hotelId, id),
    expireBookingPayment: (hotelId, id) => onlinePayments.jobs.expire(hotelId, id),
  };
}
