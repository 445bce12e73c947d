import Joi from 'joi';
import { dateSpan, instant, MAX_WINDOW_DAYS, money, moneyOut, photoList } from '../../platform/http/schemas';
import { ROOM_STATUSES } from './rooms.types';
import { openApiComponent } from '../../platform/http/components';

const categoryFields = {
  name: Joi.string().trim().min(1).max(100),
  description: Joi.string().trim().max(2000).allow(''),
  capacity: Joi.number().integer().min(1).max(100),
  base_price: money,
  allow_hourly: Joi.boolean(),
  hourly_base_price: money.allow(null),
  photos: photoList,
  sort_order: Joi.number().integer().min(-10000).max(10000),
  is_active: Joi.boolean(),
};

export const createCategoryBody = Joi.object({
  ...categoryFields,
  name: categoryFields.name.required(),
  base_price: categoryFields.base_price.required(),
});

export const updateCategoryBody = Joi.object(categoryFields).min(1);

export const categoryListQuery = Joi.object({ is_active: Joi.boolean() });

const roomFields = {
  number: Joi.string().trim().min(1).max(20),
  name: Joi.string().trim().max(100).allow(null, ''),
  category_id: Joi.string().uuid(),
  floor: Joi.number().integer().min(-10).max(300).allow(null),
  base_rate: money.allow(null),
  hourly_rate: money.allow(null),
  max_guests: Joi.number().integer().min(1).max(100),
  bed_type: Joi.string().trim().max(50).allow(null, ''),
  photos: photoList,
  early_checkin_fee: money,
  late_checkout_fee: money,
  status: Joi.string().valid(...ROOM_STATUSES),
  maintenance_from: instant.allow(null),
  maintenance_to: instant.allow(null),
  notes: Joi.string().trim().max(2000).allow(''),
};

/** A closure longer than this is the `closed` status, not maintenance. */
const closureSpan = dateSpan('maintenance_from', 'maintenance_to', { maxDays: MAX_WINDOW_DAYS });

export const createRoomBody = Joi.object({
  ...roomFields,
  number: roomFields.number.required(),
  category_id: roomFields.category_id.required(),
}).custom(closureSpan);

export const updateRoomBody = Joi.object(roomFields).min(1).custom(closureSpan);

export const roomStatusBody = Joi.object({
  status: roomFields.status.required(),
  maintenance_from: roomFields.maintenance_from,
  maintenance_to: roomFields.maintenance_to,
}).custom(closureSpan);

export const roomListQuery = Joi.object({
  category_id: Joi.string().uuid(),
  status: Joi.string().valid(...ROOM_STATUSES),
  floor: Joi.number().integer().min(-10).max(300),
  search: Joi.string().trim().max(20),
});

export const categorySchema = Joi.object({
  id: Joi.string().uuid(),
  hotel_id: Joi.string().uuid(),
  name: Joi.string(),
  description: Joi.string().allow(''),
  capacity: Joi.number().integer(),
  base_price: moneyOut,
  allow_hourly: Joi.boolean(),
  hourly_base_price: moneyOut.allow(null),
  photos: Joi.array().items(Joi.string()),
  sort_order: Joi.number().integer(),
  is_active: Joi.boolean(),
  created_at: Joi.date(),
  updated_at: Joi.date(),
}).meta(openApiComponent('RoomCategory'));

export const roomSchema = Joi.object({
  id: Joi.string().uuid(),
  hotel_id: Joi.string().uuid(),
  category_id: Joi.string().uuid(),
  number: Joi.string(),
  name: Joi.string().allow(null, ''),
  floor: Joi.string().allow(null),
  base_rate: moneyOut.allow(null),
  hourly_rate: moneyOut.allow(null),
  max_guests: Joi.number().integer(),
  bed_type: Joi.string().allow(null, ''),
  photos: Joi.array().items(Joi.string()),
  early_checkin_fee: moneyOut,
  late_checkout_fee: moneyOut,
  status: Joi.string().valid(...ROOM_STATUSES),
  maintenance_from: Joi.date().allow(null),
  maintenance_to: Joi.date().allow(null),
  notes: Joi.string().allow(''),
  created_at: Joi.date(),
  updated_at: Joi.date(),
}).meta(openApiComponent('Room'));
