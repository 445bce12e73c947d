export type { PaymentsService } from './payments.service';
export { returnUrl } from './payments.schemas';
export {
  HOLD_EXPIRY_ACTIONS,
  PAYMENT_METHODS,
  type BookingPayment,
  type CheckinPaymentLevel,
  type DeductionPreset,
  type HoldExpiryAction,
  type HotelPaymentMethod,
  type PaymentGateway,
  type PaymentInput,
  type PaymentMethod,
  type PaymentSettings,
  type YooKassaGateway,
} from './payments.types';
