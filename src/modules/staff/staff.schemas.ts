import Joi from 'joi';
import { pageQueryKeys } from '../../platform/http/pagination';
import { HOTEL_ROLES } from '../../platform/http/roles';
import { openApiComponent } from '../../platform/http/components';

export { idParams as staffParams } from '../../platform/http/schemas';

export const staffListQuery = Joi.object({
  role: Joi.string().valid(...HOTEL_ROLES),
  active: Joi.boolean(),
  ...pageQueryKeys,
});

export const createStaffBody = Joi.object({
  name: Joi.string().trim().min(2).max(200).required(),
  email: Joi.string().trim().lowercase().email({ tlds: false }).max(254).required(),
  role: Joi.string()
    .valid(...HOTEL_ROLES)
    .required(),
  phone: Joi.string().trim().min(5).max(50).allow(null),
  position: Joi.string().trim().max(200).allow(''),
  password: Joi.string().min(8).max(256),
});

export const updateStaffBody = Joi.object({
  name: Joi.string().trim().min(2).max(200),
  phone: Joi.string().trim().min(5).max(50).allow(null),
  position: Joi.string().trim().max(200).allow(''),
  active: Joi.boolean(),
  role: Joi.string().valid(...HOTEL_ROLES),
})
  .min(1)
  .messages({ 'object.min': 'at least one field must be given' });

export const staffMemberSchema = Joi.object({
  id: Joi.string().uuid().required(),
  hotel_id: Joi.string().uuid().required(),
  name: Joi.string().required(),
  email: Joi.string().required(),
  role: Joi.string()
    .valid(...HOTEL_ROLES)
    .required(),
  phone: Joi.string().allow(null).required(),
  position: Joi.string().allow('').required(),
  active: Joi.boolean().required(),
  email_confirmed: Joi.boolean().required(),
  invitation_status: Joi.string().valid('pending', 'accepted', 'expired').allow(null).required(),
  invite_expires: Joi.date().allow(null).required(),
  created_at: Joi.date().required(),
  updated_at: Joi.date().required(),
}).meta(openApiComponent('StaffMember'));

export const staffListSchema = Joi.array().items(staffMemberSchema);
