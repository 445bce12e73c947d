export { paymentsRoutes } from './payments.routes';
export {
  createPaymentsService,
  paymentSettingsRepository,
  type CheckinPaymentLevel,
  type PaymentsService,
} from './payments.service';
