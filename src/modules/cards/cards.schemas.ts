import Joi from 'joi';
import { openApiComponent } from '../../platform/http/components';
import { CARD_STATUSES } from './cards.types';

const sector = Joi.number().integer().min(1).max(16);

export const issueCardBody = Joi.object({
  booking_id: Joi.string().uuid().required(),
  workstation_id: Joi.string().uuid().required().description('The desk whose encoder writes the card'),
  sectors: Joi.array()
    .items(sector)
    .min(1)
    .max(16)
    .unique()
    .required()
    .description('Card sectors the locks read: circles 1 to 16'),
  room_ids: Joi.array()
    .items(Joi.string().uuid())
    .min(1)
    .max(10)
    .unique()
    .description("The booking's room unless given"),
  valid_until: Joi.date().iso().description("The stay's end unless given; never later"),
});

export const cancelCardBody = Joi.object({
  workstation_id: Joi.string().uuid().required().description('The desk whose encoder holds the card'),
});

export const cardsQuery = Joi.object({ booking_id: Joi.string().uuid().required() });

export const dllInfoQuery = Joi.object({ workstation_id: Joi.string().uuid().required() });

export const cardIssuanceSchema = Joi.object({
  id: Joi.string().uuid(),
  hotel_id: Joi.string().uuid(),
  booking_id: Joi.string().uuid(),
  workstation_id: Joi.string().uuid().allow(null),
  room_ids: Joi.array().items(Joi.string().uuid()),
  sectors: Joi.array().items(sector),
  valid_from: Joi.date(),
  valid_until: Joi.date(),
  status: Joi.string().valid(...CARD_STATUSES),
  card_number: Joi.string().allow(null),
  error_code: Joi.string().allow(null).description('The encoder’s or lock cloud’s refusal code, when failed'),
  error_message: Joi.string().allow(null).description('Why it was not written, in words'),
  issued_by: Joi.string().uuid().allow(null),
  cancelled_by: Joi.string().uuid().allow(null),
  cancelled_at: Joi.date().allow(null),
  created_at: Joi.date(),
  updated_at: Joi.date(),
}).meta(openApiComponent('CardIssuance'));
