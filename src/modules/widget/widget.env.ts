import Joi from 'joi';
import { envSetting, type SectionSettings } from '../../platform/config';
import type { ModuleConfig } from '../../platform/modules';

/** Per client address: the widget's reads a minute (per API process), submissions per 10 minutes, lookups per 15. */
export const widgetEnv = {
  widgetLimits: envSetting(
    Joi.object({
      WIDGET_READS_PER_MINUTE: Joi.number().integer().min(1).default(600),
      WIDGET_SUBMISSIONS_PER_10_MINUTES: Joi.number().integer().min(1).default(20),
      WIDGET_LOOKUPS_PER_15_MINUTES: Joi.number().integer().min(1).default(10),
    }),
    (values): { reads: number; submissions: number; lookups: number } => ({
      reads: values.WIDGET_READS_PER_MINUTE,
      submissions: values.WIDGET_SUBMISSIONS_PER_10_MINUTES,
      lookups: values.WIDGET_LOOKUPS_PER_15_MINUTES,
    }),
  ),
};

export type WidgetConfig = ModuleConfig<SectionSettings<typeof widgetEnv>>;
