export type { PaymentsService } from './payments.service';
export {
  PAYMENT_METHODS,
  type BookingPayment,
  type CheckinPaymentLevel,
  type PaymentInput,
  type PaymentMethod,
} from './payments.types';
