import Joi from 'joi';
import { ROLES } from '../../platform/http/roles';
import { openApiComponent } from '../../platform/http/components';
export { okResponse } from '../../platform/http/schemas';

const email = Joi.string().trim().lowercase().email({ tlds: false }).max(254);
/** Length ceilings keep bodies small; the 72-byte bcrypt ceiling is checked with its own message. */
const newPassword = Joi.string().min(8).max(256);
const token = Joi.string().max(256);

export const loginBody = Joi.object({
  email: Joi.string().max(254).required(),
  password: Joi.string().max(1024).required(),
});

export const registerBody = Joi.object({
  hotel_name: Joi.string().trim().min(2).max(200).required(),
  address: Joi.string().trim().min(2).max(500).required(),
  contact: Joi.string().trim().min(2).max(200).required(),
  email: email.required(),
  phone: Joi.string().trim().min(5).max(50).required(),
  password: newPassword.required(),
});

export const confirmEmailQuery = Joi.object({ token: Joi.string().allow('').max(256) });

export const emailBody = Joi.object({ email: Joi.string().max(254).required() });

export const resetPasswordBody = Joi.object({ token: token.required(), password: newPassword.required() });

export const acceptInviteBody = Joi.object({
  token: token.required(),
  password: Joi.string().min(6).max(256).required(),
});

const accountFields = {
  id: Joi.string().uuid().required(),
  email: Joi.string().required(),
  name: Joi.string().required(),
  role: Joi.string()
    .valid(...ROLES)
    .required(),
};

const sessionUser = Joi.object({
  ...accountFields,
  hotelId: Joi.string().uuid().allow(null).required(),
  hotelSlug: Joi.string().allow(null).required(),
}).meta(openApiComponent('SessionUser'));

export const sessionResponse = Joi.object({ access_token: Joi.string().required(), user: sessionUser.required() }).meta(
  openApiComponent('Session'),
);
export const accessTokenResponse = Joi.object({ access_token: Joi.string().required() }).meta(
  openApiComponent('AccessToken'),
);
export const registeredResponse = Joi.object({ ok: Joi.boolean().valid(true).required(), message: Joi.string() });

export const meResponse = Joi.object({
  ...accountFields,
  hotel_id: Joi.string().uuid().allow(null).required(),
  created_at: Joi.date().required(),
  hotel_slug: Joi.string().allow(null).required(),
})
  .allow(null)
  .meta(openApiComponent('Account'));
