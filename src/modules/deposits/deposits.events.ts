import Joi from 'joi';
import { DEPOSIT_KINDS } from '../../../workflows/contracts/deposits';
import { defineHotelEvent } from '../../platform/realtime/events';
import { DEPOSIT_STATUSES, type Deposit } from './deposits.types';

interface DepositPayload {
  deposit_id: string;
  booking_id: string;
  kind: Deposit['kind'];
  status: Deposit['status'];
  pending_operation: Deposit['pending_operation'];
}

/** The desk's screen follows the deposit without polling (polling every 5 s, as the spec says, works too). */
export const depositUpdated = defineHotelEvent<DepositPayload>(
  'deposit_updated',
  'A deposit was created or changed status (a hold confirmed, a release or refund done).',
  Joi.object({
    deposit_id: Joi.string().uuid().required(),
    booking_id: Joi.string().uuid().required(),
    kind: Joi.string()
      .valid(...DEPOSIT_KINDS)
      .required(),
    status: Joi.string()
      .valid(...DEPOSIT_STATUSES)
      .required(),
    pending_operation: Joi.string().valid('release', 'cancel', 'refund').allow(null).required(),
  }),
);
