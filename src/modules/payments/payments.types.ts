import type { TaxationSystem, VatRate } from '../../integrations/atol';
export const CHECKIN_PAYMENT_LEVELS = ['none', 'soft', 'hard'] as const;
export type CheckinPaymentLevel = (typeof CHECKIN_PAYMENT_LEVELS)[number];

export const PAYMENT_METHODS = ['cash', 'card', 'transfer', 'online', 'other'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

/** What becomes of a confirmed hold about to lapse at the provider (on its 7th day): taken, or given back. */
export const HOLD_EXPIRY_ACTIONS = ['capture', 'release'] as const;
export type HoldExpiryAction = (typeof HOLD_EXPIRY_ACTIONS)[number];

/** A named set of amounts staff pick from when they keep part of a deposit (money as strings, two decimals). */
export interface DeductionPreset {
  name: string;
  amounts: string[];
}

export interface PaymentSettings {
  hotel_id: string;
  require_payment_checkin: CheckinPaymentLevel;
  /** A deposit is released only once its booking is checked out. */
  release_requires_checkout: boolean;
  /** Stays longer than `long_stay_threshold_days` nights are charged in full: a provider's hold lives only 7 days. */
  long_stay_charge_enabled: boolean;
  long_stay_threshold_days: number;
  hold_expiry_action: HoldExpiryAction;
  /** How long an unpaid online booking waits for its payment. */
  online_payment_ttl_minutes: number;
  deduction_presets: DeductionPreset[];
  /** What the desk's fiscal receipts say: the hotel's taxation system and its services' VAT rate. */
  fiscal_taxation: TaxationSystem;
  fiscal_vat: VatRate;
  /** The VAT rate of room service (catering) on the same receipts. */
  fiscal_vat_room_service: VatRate;
  updated_at: Date;
}

export type PaymentSettingsChanges = Partial<Omit<PaymentSettings, 'hotel_id' | 'updated_at'>>;

/** One row of a booking's payment ledger; the booking's `paid_amount` is their sum. */
export interface BookingPayment {
  id: string;
  hotel_id: string;
  booking_id: string;
  amount: string;
  method: PaymentMethod;
  note: string;
  paid_at: Date;
  created_by: string | null;
  created_at: Date;
}

export interface PaymentInput {
  amount: string;
  method: PaymentMethod;
  note?: string;
  paid_at?: Date;
}

/** A way of paying the hotel's desk offers (its `type` is the kind of payment a ledger row records). */
export interface HotelPaymentMethod {
  id: string;
  hotel_id: string;
  name: string;
  currency: string;
  type: PaymentMethod;
  is_active: boolean;
  sort_order: number;
  created_at: Date;
  updated_at: Date;
}

export type PaymentMethodInput = Partial<Omit<HotelPaymentMethod, 'id' | 'hotel_id' | 'created_at' | 'updated_at'>>;

export interface PaymentMethodFilter {
  is_active?: boolean;
  type?: PaymentMethod;
}

export const GATEWAY_PROVIDERS = ['yookassa'] as const;
export type GatewayProvider = (typeof GATEWAY_PROVIDERS)[number];

/** A gateway as stored: its secret key only as an envelope under the key `secret_key_id` names. */
export interface PaymentGatewayRow {
  id: string;
  hotel_id: string;
  provider: GatewayProvider;
  shop_id: string;
  secret_key_encrypted: string;
  secret_key_id: string;
  auto_confirm_on_payment: boolean;
  test_mode: boolean;
  is_active: boolean;
  return_url: string | null;
  created_at: Date;
  updated_at: Date;
}

type GatewaySettings = Pick<
  PaymentGatewayRow,
  'provider' | 'shop_id' | 'auto_confirm_on_payment' | 'test_mode' | 'is_active' | 'return_url'
>;

/** A gateway as staff see it: whether a secret key is set and its last characters, never the key. */
export type PaymentGateway = Omit<PaymentGatewayRow, 'secret_key_encrypted' | 'secret_key_id'> & {
  secret_key_set: true;
  secret_key_hint: string;
};

export type GatewayInput = Partial<GatewaySettings> & { secret_key?: string };
export type GatewayColumns = Partial<
  GatewaySettings & Pick<PaymentGatewayRow, 'secret_key_encrypted' | 'secret_key_id'>
>;

/** The hotel's active YooKassa gateway as the payment flows use it, its secret key decrypted. */
export interface YooKassaGateway {
  gatewayId: string;
  shopId: string;
  secretKey: string;
  autoConfirmOnPayment: boolean;
  testMode: boolean;
  returnUrl: string | null;
}
