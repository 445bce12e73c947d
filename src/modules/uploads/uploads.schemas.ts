import Joi from 'joi';
import { IMAGE_TYPES } from './uploads.sniff';
import { DEFAULT_UPLOAD_FOLDER, UPLOAD_FOLDERS } from './uploads.service';
import { openApiComponent } from '../../platform/http/components';

export const uploadQuery = Joi.object({
  folder: Joi.string()
    .valid(...UPLOAD_FOLDERS)
    .default(DEFAULT_UPLOAD_FOLDER),
});

export const deleteUploadQuery = Joi.object({
  url: Joi.string().max(2048).required().description('The `url` the upload answered with'),
});

export const uploadedFileSchema = Joi.object({
  url: Joi.string().uri().required().description('Public address: `{cdn_url}/<folder>/<uuid>.<ext>`'),
  key: Joi.string().required().description('Storage key: `<folder>/<uuid>.<ext>`'),
  folder: Joi.string()
    .valid(...UPLOAD_FOLDERS)
    .required(),
  content_type: Joi.string()
    .valid(...Object.values(IMAGE_TYPES))
    .required(),
  size: Joi.number().integer().min(1).required().description('Bytes'),
}).meta(openApiComponent('UploadedFile'));

export const okSchema = Joi.object({ ok: Joi.boolean().valid(true).required() });

/** A stored file's address under `{cdn_url}`: its folder and the name it was stored under. */
export const fileParams = Joi.object({
  folder: Joi.string()
    .valid(...UPLOAD_FOLDERS)
    .required(),
  name: Joi.string()
    .pattern(new RegExp(`^[0-9a-f-]{36}\\.(${Object.keys(IMAGE_TYPES).join('|')})$`), 'stored name')
    .required(),
});
