import Joi from 'joi';
import { openApiComponent } from '../../platform/http/components';

const actorSchema = Joi.object({
  type: Joi.string().valid('staff', 'guest', 'system', 'provider').required(),
  id: Joi.string().uuid().optional().description('The staff member (`staff`)'),
  name: Joi.string()
    .allow(null)
    .optional()
    .description('Their name (`staff`; null when no longer on the staff), or the job or provider'),
  role: Joi.string().allow(null).optional().description('Their role (`staff`)'),
})
  .description('Who did it; null when the record keeps nobody')
  .meta(openApiComponent('TimelineActor'));

const entrySchema = Joi.object({
  at: Joi.date().iso().required(),
  kind: Joi.string()
    .required()
    .description(
      'What happened: `created`, `confirmed`, `checked_in`, `checked_out`, `cancelled`, `inquiry`, `changed`; ' +
        '`split_stay`, `room_move_planned`, `room_moved`; `payment`, `payment_returned`, `payment_deleted`, ' +
        '`online_payment_requested`, `online_payment_succeeded`, `online_payment_canceled`, `deposit`, ' +
        '`deposit_confirmed`, `deposit_closed`, `deposit_refund`, `fiscal_receipt`; `folio_<line kind>`, ' +
        '`folio_line_moved`, `folio_settlement`, `invoice`, `credit_note`, `invoice_email`; `guest_email`, ' +
        '`tv_push`, `card`, `card_cancelled`, `room_service_order`, `room_service_delivered`, ' +
        '`room_service_cancelled`, `room_service_refunded`, `notification`, `review_invitation`, `review`, ' +
        '`review_reply`, `loyalty`. In `upcoming`: `review_invitation`, `room_move`, `payment_expires`, ' +
        '`deposit_payment_expires`, `hold_settles`',
    ),
  summary: Joi.string().allow('').required(),
  actor: actorSchema.allow(null).required(),
}).meta(openApiComponent('TimelineEntry'));

export const timelineSchema = Joi.object({
  booking_id: Joi.string().uuid().required(),
  entries: Joi.array().items(entrySchema).required().description('Oldest first'),
  truncated: Joi.boolean()
    .required()
    .description('True when older records were left out: a source read its latest 200, or more than 1000 entries'),
  cut_sources: Joi.array()
    .items(Joi.string())
    .required()
    .description('The sources that left older records out at their bound (`entries`: the timeline’s 1000)'),
  upcoming: Joi.object({
    available: Joi.boolean().required().description('False when Temporal did not answer in time'),
    reason: Joi.string().optional().description('Why the part is missing (`available` false) or incomplete'),
    unanswered: Joi.array()
      .items(Joi.string())
      .optional()
      .description('The workflows (ids) that did not answer in time: the others’ answers are shown'),
    entries: Joi.array().items(entrySchema).required().description('Soonest first'),
  }).required(),
});
