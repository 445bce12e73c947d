import type { BookingPaymentActivities } from '../../../workflows/contracts/booking-payments';
import type { DepositActivities } from '../../../workflows/contracts/deposits';
import { defineModule } from '../../platform/modules';
import { depositUpdated } from './deposits.events';
import { createDepositJobs } from './deposits.jobs';
import { depositsRoutes } from './deposits.routes';
import { createDepositsService, type DepositsDependencies } from './deposits.service';
import { createOnlinePayments } from './online-payments';
import { createProviderNotifications } from './provider-notifications';

/** Money through the payment provider: security deposits, online payments of bookings, and the provider's notices. */
export const depositsModule = defineModule({
  name: 'deposits',
  uses: ['hotels', 'bookings', 'payments', 'minibar', 'notifications'],
  create({ db, config }, deps: DepositsDependencies) {
    const deposits = createDepositsService(db, config, deps);
    const onlinePayments = createOnlinePayments(db, config, deposits.provider, deps);
    const providerNotifications = createProviderNotifications(db, config, deps, onlinePayments);
    return { deposits, onlinePayments, providerNotifications };
  },
  events: [depositUpdated],
  routes: ({ deposits, onlinePayments, providerNotifications }) =>
    depositsRoutes(deposits, onlinePayments, providerNotifications),
  activities({ deposits, onlinePayments }, { db, mailer }, deps): DepositActivities & BookingPaymentActivities {
    const jobs = createDepositJobs(db, deposits, deps, mailer);
    return {
      createDepositPayment: (hotelId, depositId) => jobs.createPayment(hotelId, depositId),
      syncDepositPayment: (hotelId, depositId) => jobs.sync(hotelId, depositId),
      expireDepositPayment: (hotelId, depositId) => jobs.expire(hotelId, depositId),
      performDepositOperation: (hotelId, depositId, command) => jobs.perform(hotelId, depositId, command),
      settleLapsingHold: (hotelId, depositId) => jobs.settleLapsingHold(hotelId, depositId),
      sendDepositStatement: (hotelId, depositId) => jobs.sendStatement(hotelId, depositId),
      createBookingPayment: (hotelId, id) => onlinePayments.jobs.create(hotelId, id),
      syncBookingPayment: (hotelId, id) => onlinePayments.jobs.sync(hotelId, id),
      expireBookingPayment: (hotelId, id) => onlinePayments.jobs.expire(hotelId, id),
    };
  },
});
