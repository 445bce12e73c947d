import Joi from 'joi';
import { envSetting, type SectionSettings } from '../../platform/config';
import type { ModuleConfig } from '../../platform/modules';
import { CHANNEX_API_URL } from './channels.channex-call';

/**
 * Channex's API root: production unless CHANNEX_API_URL is set (its staging, or the fake in development and tests).
 * In production only https (the API key goes in every request's header), or http to this machine's own loopback
 * (the fake the bench runs beside the API: nothing leaves the host).
 */
const SAFE_IN_PRODUCTION = /^(https:\/\/|http:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?(\/|$))/i;

export const channelsEnv = {
  channex: envSetting(
    Joi.object({
      CHANNEX_API_URL: Joi.string()
        .uri({ scheme: ['http', 'https'] })
        .when('NODE_ENV', {
          is: 'production',
          then: Joi.string().pattern(SAFE_IN_PRODUCTION),
        }),
    }),
    (values): { apiUrl: string } => ({ apiUrl: (values.CHANNEX_API_URL as string | undefined) ?? CHANNEX_API_URL }),
  ),
};

export type ChannelsConfig = ModuleConfig<SectionSettings<typeof channelsEnv>>;
