import Joi from 'joi';
import { envSetting, type SectionSettings } from '../../platform/config';
import type { ModuleConfig } from '../../platform/modules';

/** How long a staff invitation stays valid. */
export const staffEnv = {
  invitationTtlSeconds: envSetting(
    Joi.object({
      INVITATION_TTL_SECONDS: Joi.number()
        .integer()
        .min(1)
        .default(7 * 24 * 3600),
    }),
    (values): number => values.INVITATION_TTL_SECONDS,
  ),
};

export type StaffSettings = SectionSettings<typeof staffEnv>;
export type StaffConfig = ModuleConfig<StaffSettings>;
