import Joi from 'joi';
import { envSetting, type SectionSettings } from '../../platform/config';
import type { ModuleConfig } from '../../platform/modules';

interface YooKassaSettings {
  apiUrl: string;
  notificationSources: string[];
  notificationsPerMinute: number;
  notificationCoalesceMs: number;
}

export interface PaymentTimers {
  confirmationTimeoutMs: number;
  pollIntervalMs: number;
  holdSettleAfterMs: number;
  onlinePaymentTtlMs?: number;
}

/**
 * YooKassa: the API v3 base address (the sandbox fake in development and tests); the source addresses (CIDR) its
 * notifications may come from (empty: any; a notification is never believed anyway, only re-read); notifications a
 * minute per source address (per API process), and the window in which one payment's notifications make one re-read.
 */
const yookassa = envSetting(
  Joi.object({
    YOOKASSA_API_URL: Joi.string()
      .uri({ scheme: ['http', 'https'] })
      .default('https://api.yookassa.ru/v3'),
    YOOKASSA_NOTIFICATION_SOURCES: Joi.string().pattern(/^[\d.:a-fA-F/]+(,[\d.:a-fA-F/]+)*$/, 'cidr[,cidr...]'),
    YOOKASSA_NOTIFICATIONS_PER_MINUTE: Joi.number().integer().min(1).default(600),
    YOOKASSA_NOTIFICATION_COALESCE_MS: Joi.number().integer().min(0).max(60_000).default(1000),
  }),
  (values): YooKassaSettings => ({
    apiUrl: values.YOOKASSA_API_URL.replace(/\/$/, ''),
    notificationSources: values.YOOKASSA_NOTIFICATION_SOURCES?.split(',') ?? [],
    notificationsPerMinute: values.YOOKASSA_NOTIFICATIONS_PER_MINUTE,
    notificationCoalesceMs: values.YOOKASSA_NOTIFICATION_COALESCE_MS,
  }),
);

/** The money workflows' timers (see workflows/contracts/payments.ts); `onlinePaymentTtlMs` overrides the hotel's. */
const paymentTimers = envSetting(
  Joi.object({
    PAYMENT_CONFIRMATION_TIMEOUT_MS: Joi.number().integer().min(1000).default(3_600_000),
    PAYMENT_POLL_INTERVAL_MS: Joi.number().integer().min(500).default(60_000),
    // Half a day before the provider's 7 days run out.
    DEPOSIT_HOLD_SETTLE_AFTER_MS: Joi.number()
      .integer()
      .min(1000)
      .max(7 * 24 * 3_600_000 - 60_000)
      .default(6.5 * 24 * 3_600_000),
    ONLINE_PAYMENT_TTL_MS: Joi.number().integer().min(1000),
  }),
  (values): PaymentTimers => ({
    confirmationTimeoutMs: values.PAYMENT_CONFIRMATION_TIMEOUT_MS,
    pollIntervalMs: values.PAYMENT_POLL_INTERVAL_MS,
    holdSettleAfterMs: values.DEPOSIT_HOLD_SETTLE_AFTER_MS,
    onlinePaymentTtlMs: values.ONLINE_PAYMENT_TTL_MS,
  }),
);

export const paymentsEnv = { yookassa, paymentTimers };

export type PaymentsSettings = SectionSettings<typeof paymentsEnv>;
/** What the money areas (payments, deposits, billing) read: the shared settings and the provider's and timers'. */
export type PaymentsConfig = ModuleConfig<PaymentsSettings>;
