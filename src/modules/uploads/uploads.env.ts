import Joi from 'joi';
import { envSetting, type SectionSettings } from '../../platform/config';
import type { ModuleConfig } from '../../platform/modules';

/** The largest upload, in bytes (413 above). */
export const uploadsEnv = {
  uploadMaxBytes: envSetting(
    Joi.object({
      UPLOAD_MAX_BYTES: Joi.number()
        .integer()
        .min(1024)
        .default(10 * 1024 * 1024),
    }),
    (values): number => values.UPLOAD_MAX_BYTES,
  ),
};

export type UploadsConfig = ModuleConfig<SectionSettings<typeof uploadsEnv>>;
