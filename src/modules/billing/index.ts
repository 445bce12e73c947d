export type { OnlinePayments } from './billing.online';
export type { OnlinePayment } from './billing.types';
