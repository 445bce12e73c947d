import { defineModule } from '../../platform/modules';
import { onlinePaymentActivities } from './billing.activities';
import { createProviderNotifications, type ProviderPaymentFollowers } from './billing.notifications';
import { createDeskPayments, type DeskPaymentsDependencies } from './billing.desk-payments';
import { deskPaymentsRoutes, onlinePaymentsRoutes } from './billing.routes';
import { createOnlinePayments, type OnlinePaymentsDependencies } from './billing.online';

/**
 * What the guest pays for a stay: the payments staff record at the desk and the fiscal receipts they trigger, online
 * payment of bookings through the payments module's provider, and the provider's notifications, which wake the
 * workflow following the payment they name (an online payment's or a deposit's). Built after bookings, deposits and
 * folios (what a desk receipt's lines pay), which it acts on (see docs/decisions/payments.md for the folio and
 * invoices to come).
 */
export const billingModule = defineModule({
  name: 'billing',
  uses: ['hotels', 'bookings', 'payments', 'notifications', 'deposits', 'fiscal', 'users', 'folios'],
  create({ db, config }, deps: OnlinePaymentsDependencies & ProviderPaymentFollowers & DeskPaymentsDependencies) {
    const moneyConfig = { ...config, ...deps.payments.moneyConfig };
    const onlinePayments = createOnlinePayments(db, moneyConfig, deps);
    return {
      onlinePayments,
      providerNotifications: createProviderNotifications(db, moneyConfig, deps, onlinePayments),
      deskPayments: createDeskPayments(db, deps),
    };
  },
  routes: ({ onlinePayments, providerNotifications, deskPayments }) => [
    ...deskPaymentsRoutes(deskPayments),
    ...onlinePaymentsRoutes(onlinePayments, providerNotifications),
  ],
  activities: ({ onlinePayments }) => onlinePaymentActivities(onlinePayments),
});
