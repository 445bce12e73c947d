import Joi from 'joi';
import { envSetting, type SectionSettings } from '../../platform/config';
import type { ModuleConfig } from '../../platform/modules';

/**
 * Outbound webhooks: how long one event is retried before its subscription is paused (3 days; a test uses seconds),
 * and how long a rotated-out secret keeps signing beside the new one (24 hours).
 */
export const webhooksEnv = {
  webhooks: envSetting(
    Joi.object({
      WEBHOOK_RETRY_HORIZON_SECONDS: Joi.number().integer().min(1).max(2_592_000).default(259_200),
      WEBHOOK_PREVIOUS_SECRET_HOURS: Joi.number().integer().min(0).max(720).default(24),
    }),
    (values): { retryHorizonSeconds: number; previousSecretHours: number } => ({
      retryHorizonSeconds: values.WEBHOOK_RETRY_HORIZON_SECONDS as number,
      previousSecretHours: values.WEBHOOK_PREVIOUS_SECRET_HOURS as number,
    }),
  ),
};

export type WebhooksConfig = ModuleConfig<SectionSettings<typeof webhooksEnv>>;
