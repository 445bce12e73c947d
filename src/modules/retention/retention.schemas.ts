import Joi from 'joi';
import { openApiComponent } from '../../platform/http/components';
import { slugParams } from '../../platform/http/schemas';

export const MIN_RETENTION_DAYS = 30;
export const MAX_RETENTION_DAYS = 3650;

export const settingsChanges = Joi.object({
  guest_data_days: Joi.number().integer().min(MIN_RETENTION_DAYS).max(MAX_RETENTION_DAYS),
})
  .min(1)
  .messages({ 'object.min': 'at least one field must be given' });

export const settingsSchema = Joi.object({
  hotel_id: Joi.string().uuid(),
  guest_data_days: Joi.number()
    .integer()
    .description("Days a guest's personal data is kept after the last stay (default 1095, three years)"),
  updated_at: Joi.date(),
}).meta(openApiComponent('RetentionSettings'));

export const guestParams = slugParams.keys({ id: Joi.string().uuid().required() });

export const exportSchema = Joi.object({
  exported_at: Joi.date(),
  erased_at: Joi.date().allow(null),
  guest: Joi.object().unknown().description('The profile, passport fields in clear'),
  bookings: Joi.array().items(Joi.object().unknown()),
  consents: Joi.array()
    .items(Joi.object().unknown())
    .description('Consents given with widget bookings and rental bookings'),
  deposits: Joi.array().items(Joi.object().unknown()),
  reviews: Joi.array().items(Joi.object().unknown()),
  review_invitations: Joi.array().items(Joi.object().unknown()),
  rental_bookings: Joi.array()
    .items(Joi.object().unknown())
    .description('Rental bookings of the stays or under the guest’s phone or e-mail'),
  wifi_sessions: Joi.array().items(Joi.object().unknown()),
  room_service_orders: Joi.array().items(Joi.object().unknown()),
  loyalty_entries: Joi.array().items(Joi.object().unknown()),
  tourist_tax_exemptions: Joi.array()
    .items(Joi.object().unknown())
    .description('Exemptions recorded for the stays, the document number in clear'),
  invoices: Joi.array().items(Joi.object().unknown()).description('Invoices of the stays, with their payer'),
  folio_lines: Joi.array().items(Joi.object().unknown()).description('The charges and payments of the stays'),
  fiscal_receipts: Joi.array()
    .items(Joi.object().unknown())
    .description('Receipts sent to the guest’s phone or e-mail (the buyer’s contact and what identifies the receipt)'),
  companion_stays: Joi.array()
    .items(Joi.object({ booking_id: Joi.string().uuid(), status: Joi.string(), end_at: Joi.date() }))
    .description('Bookings of another guest this guest stayed in as a companion: the link only'),
}).meta(openApiComponent('GuestDataExport'));

export const erasureSchema = Joi.object({
  guest_id: Joi.string().uuid(),
  erased_at: Joi.date(),
  erased: Joi.array().items(Joi.object({ place: Joi.string(), rows: Joi.number().integer() })),
  kept: Joi.array().items(Joi.object({ what: Joi.string(), why: Joi.string() })),
}).meta(openApiComponent('GuestErasure'));
