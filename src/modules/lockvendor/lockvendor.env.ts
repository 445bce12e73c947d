import Joi from 'joi';
import { TTLOCK_API_HOSTS } from '../../integrations/ttlock';
import { envSetting, type SectionSettings } from '../../platform/config';
import type { ModuleConfig } from '../../platform/modules';

const withoutSlash = (url: string) => url.replace(/\/$/, '');

/**
 * The TTLock cloud's API root per server (`EU`, `China`): the documented hosts unless TTLOCK_API_URL is set (both,
 * e.g. the fake in development and tests); TTLOCK_CHINA_API_URL sets the Chinese one apart.
 */
export const lockvendorEnv = {
  ttlock: envSetting(
    Joi.object({
      TTLOCK_API_URL: Joi.string().uri({ scheme: ['http', 'https'] }),
      TTLOCK_CHINA_API_URL: Joi.string().uri({ scheme: ['http', 'https'] }),
    }),
    (values): { apiUrls: { EU: string; China: string } } => ({
      apiUrls: {
        EU: withoutSlash(values.TTLOCK_API_URL ?? TTLOCK_API_HOSTS.EU),
        China: withoutSlash(values.TTLOCK_CHINA_API_URL ?? values.TTLOCK_API_URL ?? TTLOCK_API_HOSTS.China),
      },
    }),
  ),
};

export type LockvendorConfig = ModuleConfig<SectionSettings<typeof lockvendorEnv>>;
