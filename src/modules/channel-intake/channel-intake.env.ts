import Joi from 'joi';
import { envSetting, type SectionSettings } from '../../platform/config';
import type { ModuleConfig } from '../../platform/modules';

/** Channex's API root with its version, the one the channels module pushes to (production unless CHANNEX_API_URL is set). */
export const channelIntakeEnv = {
  channelIntake: envSetting(
    Joi.object({ CHANNEX_API_URL: Joi.string().uri({ scheme: ['http', 'https'] }) }),
    (values): { channexApiUrl: string } => ({
      channexApiUrl: (values.CHANNEX_API_URL as string | undefined) ?? 'https://app.channex.io/api/v1',
    }),
  ),
};

export type ChannelIntakeConfig = ModuleConfig<SectionSettings<typeof channelIntakeEnv>>;
