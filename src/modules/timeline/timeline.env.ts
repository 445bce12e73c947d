import Joi from 'joi';
import { envSetting, type SectionSettings } from '../../platform/config';

/**
 * The Temporal server its queries go to: the platform's own variables (read again here, as the platform keeps its
 * settings from the modules), so the API asks the workflows the worker runs.
 */
export const timelineEnv = {
  timelineTemporal: envSetting(
    Joi.object({ TEMPORAL_ADDRESS: Joi.string(), TEMPORAL_NAMESPACE: Joi.string() }),
    (values): { address: string; namespace: string } => ({
      address: values.TEMPORAL_ADDRESS,
      namespace: values.TEMPORAL_NAMESPACE,
    }),
  ),
};

export type TimelineSettings = SectionSettings<typeof timelineEnv>;
