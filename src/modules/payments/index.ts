export type { PaymentsService } from './payments.service';
export type { PaymentsConfig, PaymentTimers } from './payments.env';
export { returnUrl } from './payments.schemas';
export { gatewayMessages } from './payments.gateways';
export { amountOf, isRefusal, receiptFor } from './payments.provider';
export { moneyWorkflowStart, providerChangedSignal, signalWithStart } from './payments.effects';
export { MONEY_DESK, MONEY_READERS } from './payments.routes';
export type { YooKassaPayment } from '../../integrations/yookassa';
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
