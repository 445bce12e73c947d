import Joi from 'joi';
import { envSetting, type SectionSettings } from '../../platform/config';
import type { ModuleConfig } from '../../platform/modules';
import { CHANNEX_API_URL } from './channels.channex';

/**
 * Channex's API root: production unless CHANNEX_API_URL is set (its staging, or the fake in development and tests).
 * In production only https: the API key goes in every request's header.
 */
export const channelsEnv = {
  channex: envSetting(
    Joi.object({
      CHANNEX_API_URL: Joi.string()
        .uri({ scheme: ['http', 'https'] })
        .when('NODE_ENV', { is: 'production', then: Joi.string().uri({ scheme: ['https'] }) }),
    }),
    (values): { apiUrl: string } => ({ apiUrl: (values.CHANNEX_API_URL as string | undefined) ?? CHANNEX_API_URL }),
  ),
};

export type ChannelsConfig = ModuleConfig<SectionSettings<typeof channelsEnv>>;
