import Joi from 'joi';
import { envSetting, type SectionSettings } from '../../platform/config';
import type { ModuleConfig } from '../../platform/modules';

/** Overrides every hotel's delay of the review invitation after check-out (tests: a few seconds instead of hours). */
export const reviewsEnv = {
  reviewInvitationDelayMs: envSetting(
    Joi.object({ REVIEW_INVITATION_DELAY_MS: Joi.number().integer().min(0) }),
    (values): number | undefined => values.REVIEW_INVITATION_DELAY_MS,
  ),
};

export type ReviewsSettings = SectionSettings<typeof reviewsEnv>;
export type ReviewsConfig = ModuleConfig<ReviewsSettings>;
