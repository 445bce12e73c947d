import Joi from 'joi';
import { defineHotelEvent } from '../../platform/realtime/events';
import { CARD_STATUSES, type CardIssuance } from './cards.types';

interface CardPayload {
  issuance_id: string;
  booking_id: string;
  status: CardIssuance['status'];
  card_number: string | null;
  error_code: string | null;
}

/** The desk learns at once whether the card on its encoder was written. */
export const cardIssuanceUpdated = defineHotelEvent<CardPayload>(
  'card_issuance_updated',
  'A door-lock card was requested, written, refused or cancelled.',
  Joi.object({
    issuance_id: Joi.string().uuid().required(),
    booking_id: Joi.string().uuid().required(),
    status: Joi.string()
      .valid(...CARD_STATUSES)
      .required(),
    card_number: Joi.string().allow(null).required(),
    error_code: Joi.string().allow(null).required(),
  }),
);
