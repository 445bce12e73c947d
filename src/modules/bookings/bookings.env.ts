import Joi from 'joi';
import { envSetting, type SectionSettings } from '../../platform/config';
import type { ModuleConfig } from '../../platform/modules';

/**
 * Carries out a planned move this long after it is planned instead of at its day's check-in hour (tests: seconds, as
 * `REVIEW_INVITATION_DELAY_MS` does for the review invitation). Unset in production.
 */
export const bookingsEnv = {
  plannedMoveDelayMs: envSetting(
    Joi.object({ PLANNED_MOVE_DELAY_MS: Joi.number().integer().min(0) }),
    (values): number | undefined => values.PLANNED_MOVE_DELAY_MS,
  ),
};

export type BookingsSettings = SectionSettings<typeof bookingsEnv>;
export type BookingsConfig = ModuleConfig<BookingsSettings>;
