import Joi from 'joi';
import { envSetting, type SectionSettings } from '../../platform/config';
import type { ModuleConfig } from '../../platform/modules';

/**
 * Tests only (refused in production): the release reads the database's clock this many seconds ahead, so a night's
 * release time (the start of a hotel day) can come within a minute of a test (the faults gate). The durations the
 * workflow sleeps are differences of that one clock, so they stay true.
 */
export const blocksEnv = {
  releaseClockAheadSeconds: envSetting(
    Joi.object({
      BLOCK_RELEASE_CLOCK_AHEAD_SECONDS: Joi.number()
        .integer()
        .min(0)
        .max(2 * 86_400)
        .when('NODE_ENV', { is: 'production', then: Joi.forbidden() }),
    }),
    (values): number => (values.BLOCK_RELEASE_CLOCK_AHEAD_SECONDS as number | undefined) ?? 0,
  ),
};

export type BlocksConfig = ModuleConfig<SectionSettings<typeof blocksEnv>>;
