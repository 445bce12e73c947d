import Joi from 'joi';
import { defineHotelEvent } from '../../platform/realtime/events';
import { REVIEW_STATUSES, type ReviewStatus } from './reviews.types';

const status = Joi.string()
  .valid(...REVIEW_STATUSES)
  .required();

export const reviewCreated = defineHotelEvent<{
  review_id: string;
  booking_id: string;
  overall: number;
  status: ReviewStatus;
  created_at: Date;
}>(
  'review:created',
  'A guest left a review of their stay (`pending` until staff publish it, unless the hotel publishes on arrival).',
  Joi.object({
    review_id: Joi.string().uuid().required(),
    booking_id: Joi.string().uuid().required(),
    overall: Joi.number().integer().min(1).max(5).required(),
    status,
    created_at: Joi.date().iso().required(),
  }),
);

export const reviewUpdated = defineHotelEvent<{ review_id: string; status: ReviewStatus; has_reply: boolean }>(
  'review:updated',
  'Staff published or hid a review, or replied to it (or took the reply back).',
  Joi.object({ review_id: Joi.string().uuid().required(), status, has_reply: Joi.boolean().required() }),
);

export const REVIEW_EVENTS = [reviewCreated, reviewUpdated];
