import Joi from 'joi';
import { envSetting, type SectionSettings } from '../../platform/config';
import type { ModuleConfig } from '../../platform/modules';

/** The lifetimes of access tokens and of refresh sessions (and their cookie). */
export const authEnv = {
  accessTokenTtlSeconds: envSetting(
    Joi.object({ ACCESS_TOKEN_TTL_SECONDS: Joi.number().integer().min(30).default(900) }),
    (values): number => values.ACCESS_TOKEN_TTL_SECONDS,
  ),
  refreshTokenTtlDays: envSetting(
    Joi.object({ REFRESH_TOKEN_TTL_DAYS: Joi.number().integer().min(1).default(30) }),
    (values): number => values.REFRESH_TOKEN_TTL_DAYS,
  ),
};

export type AuthSettings = SectionSettings<typeof authEnv>;
export type AuthConfig = ModuleConfig<AuthSettings>;
