import Joi from 'joi';
import { openApiComponent } from '../../platform/http/components';
import { pageQueryKeys } from '../../platform/http/pagination';
import { calendarDate, dateSpan, slugParams } from '../../platform/http/schemas';
import { MAX_SPAN_DAYS, MAX_TEXT } from './reviews.rules';
import { REVIEW_ASPECTS, REVIEW_STATUSES } from './reviews.types';

const rating = Joi.number().integer().min(1).max(5);
const span = { maxDays: MAX_SPAN_DAYS };
const email = Joi.string().trim().lowercase().email({ tlds: false }).max(254);

export const settingsChanges = Joi.object({
  invitations_enabled: Joi.boolean(),
  invitation_delay_hours: Joi.number().integer().min(0).max(720),
  auto_publish: Joi.boolean(),
})
  .min(1)
  .messages({ 'object.min': 'at least one field must be given' });

export const settingsSchema = Joi.object({
  hotel_id: Joi.string().uuid(),
  invitations_enabled: Joi.boolean().description('Guests of checked-out stays are e-mailed a review link'),
  invitation_delay_hours: Joi.number()
    .integer()
    .description('Hours after the check-out the invitation goes (0 to 720)'),
  auto_publish: Joi.boolean().description('New reviews are published at once; otherwise they wait for moderation'),
  updated_at: Joi.date(),
}).meta(openApiComponent('ReviewSettings'));

const aspectFields = Object.fromEntries(REVIEW_ASPECTS.map((aspect) => [aspect, rating.allow(null)]));

export const reviewSchema = Joi.object({
  id: Joi.string().uuid(),
  booking_id: Joi.string().uuid(),
  overall: rating,
  ...aspectFields,
  comment: Joi.string().allow(''),
  guest_first_name: Joi.string(),
  stay_from: Joi.string().description('First day of the stay (hotel calendar)'),
  stay_to: Joi.string().description('Last day (check-out day) of the stay'),
  status: Joi.string().valid(...REVIEW_STATUSES),
  reply: Joi.string().allow(null),
  replied_at: Joi.date().allow(null),
  replied_by: Joi.string().uuid().allow(null),
  published_at: Joi.date().allow(null).description('When it was first published'),
  created_at: Joi.date(),
  updated_at: Joi.date(),
}).meta(openApiComponent('Review'));

export const reviewListQuery = Joi.object({
  status: Joi.string().valid(...REVIEW_STATUSES),
  min_rating: rating.description('Overall rating at least this'),
  max_rating: rating.description('Overall rating at most this'),
  has_reply: Joi.boolean(),
  from: calendarDate.description('Reviews that came in on this day of the hotel calendar or later'),
  to: calendarDate.description(`Up to this day (at most ${MAX_SPAN_DAYS} days after \`from\`)`),
  ...pageQueryKeys,
}).custom(dateSpan('from', 'to', span));

export const summaryQuery = Joi.object({
  from: calendarDate.required(),
  to: calendarDate.required().description(`At most ${MAX_SPAN_DAYS} days after \`from\``),
}).custom(dateSpan('from', 'to', span));

const averagesSchema = Joi.object({
  overall: Joi.number().allow(null),
  ...Object.fromEntries(REVIEW_ASPECTS.map((aspect) => [aspect, Joi.number().allow(null)])),
})
  .description('Averages rounded to 2 decimals; null where no review rated it')
  .meta(openApiComponent('ReviewAverages'));

export const summarySchema = Joi.object({
  from: Joi.string(),
  to: Joi.string(),
  count: Joi.number().integer(),
  averages: averagesSchema,
  months: Joi.array().items(
    Joi.object({
      month: Joi.string().description('YYYY-MM of the hotel calendar'),
      count: Joi.number().integer(),
      averages: averagesSchema,
    }).meta(openApiComponent('ReviewMonth')),
  ),
}).meta(openApiComponent('ReviewSummary'));

export const replyBody = Joi.object({ text: Joi.string().trim().min(1).max(MAX_TEXT).required() });

export const statusBody = Joi.object({ status: Joi.string().valid('published', 'hidden').required() });

export const optOutBody = Joi.object({ email: email.required() });

export const optOutQuery = Joi.object({ email, ...pageQueryKeys });

export const optOutSchema = Joi.object({
  id: Joi.string().uuid(),
  email: Joi.string(),
  source: Joi.string().valid('guest', 'staff').description('`guest`: by the link in an invitation'),
  created_by: Joi.string().uuid().allow(null),
  created_at: Joi.date(),
}).meta(openApiComponent('ReviewOptOut'));

export const optOutIdParams = slugParams.keys({ id: Joi.string().uuid().required() });

export const tokenParams = Joi.object({
  token: Joi.string().hex().length(64).required().description("The `token` of the invitation e-mail's link"),
});

export const linkSchema = Joi.object({
  hotel_name: Joi.string(),
  guest_first_name: Joi.string(),
  stay_from: Joi.string(),
  stay_to: Joi.string(),
  expires_at: Joi.date(),
  submitted: Joi.boolean().description('A review was left with this link already'),
  aspects: Joi.array().items(Joi.string().valid(...REVIEW_ASPECTS)),
}).meta(openApiComponent('ReviewLink'));

export const submitBody = Joi.object({
  overall: rating.required(),
  ...aspectFields,
  comment: Joi.string().trim().max(MAX_TEXT).allow(''),
});

export const submittedSchema = Joi.object({
  status: Joi.string().valid('pending', 'published'),
  created_at: Joi.date(),
}).meta(openApiComponent('ReviewReceived'));

export const optedOutSchema = Joi.object({ opted_out: Joi.boolean().valid(true) }).meta(
  openApiComponent('ReviewOptedOut'),
);
