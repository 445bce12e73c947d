import Joi from 'joi';
import { VAT_RATES } from '../../integrations/atol';
import { openApiComponent } from '../../platform/http/components';
import { calendarDate, idParams, moneyOut, signedDecimal } from '../../platform/http/schemas';
import { isValidInn } from '../hotels';
import {
  LINE_KINDS,
  MANUAL_KINDS,
  MAX_DESCRIPTION,
  MAX_MANUAL_AMOUNT,
  MAX_SOURCE,
  PAYER_KINDS,
  SETTLEMENT_DECISIONS,
} from './folios.types';

export const folioLineParams = idParams.keys({ lineId: Joi.string().uuid().required() });

export const manualLineBody = Joi.object({
  kind: Joi.string()
    .valid(...MANUAL_KINDS)
    .required(),
  amount: signedDecimal
    .required()
    .description(`Roubles, at most ${MAX_MANUAL_AMOUNT} either way: a service positive, a discount negative`),
  vat_rate: Joi.string()
    .valid(...VAT_RATES)
    .description('Without: the rate of the hotel’s receipts (`fiscal_vat`)'),
  description: Joi.string().trim().min(1).max(MAX_DESCRIPTION).required(),
  source: Joi.string()
    .trim()
    .min(1)
    .max(MAX_SOURCE - 'manual:'.length)
    .description('The client’s key of this line: a retry with the same key posts nothing and answers the first line'),
  folio_id: Joi.string().uuid().description('A folio of the booking; without: the guest’s'),
  corrects_line_id: Joi.string().uuid().description('The line of the booking this one corrects'),
});

const innMessage = 'ИНН плательщика с неверными контрольными цифрами';

export const companyFolioBody = Joi.object({
  payer_name: Joi.string().trim().min(1).max(200).required(),
  payer_inn: Joi.string()
    .pattern(/^(\d{10}|\d{12})$/, 'INN')
    .custom((inn: string, helpers) => (isValidInn(inn) ? inn : helpers.message({ custom: innMessage })))
    .required()
    .description('10 digits (a company) or 12 (an entrepreneur), with the right check digits'),
});

export const moveLineBody = Joi.object({ folio_id: Joi.string().uuid().required() });

export const settlementBody = Joi.object({
  decision: Joi.string()
    .valid(...SETTLEMENT_DECISIONS)
    .required()
    .description('`leave_open` (the guest pays later), `write_off`, `bill_company` (a company folio will be invoiced)'),
  note: Joi.string().trim().max(MAX_DESCRIPTION),
});

export const settingsBody = Joi.object({ checkout_needs_settlement: Joi.boolean().required() });
export const closeDayBody = Joi.object({ date: calendarDate.required() });

export const settingsSchema = Joi.object({
  hotel_id: Joi.string(),
  closed_through: Joi.string().allow(null).description('The last closed business day (its lines never change)'),
  checkout_needs_settlement: Joi.boolean(),
  updated_at: Joi.date(),
}).meta(openApiComponent('FolioSettings'));

export const lineSchema = Joi.object({
  id: Joi.string(),
  hotel_id: Joi.string(),
  folio_id: Joi.string(),
  kind: Joi.string().valid(...LINE_KINDS),
  amount: moneyOut.description('Positive: owed by the payer; negative: paid or taken off'),
  vat_rate: Joi.string().valid(...VAT_RATES),
  business_date: Joi.string(),
  description: Joi.string(),
  posted_by: Joi.string().allow(null).description('The staff member who posted it; null: the system'),
  posted_via: Joi.string().description('The flow that posted it: desk, payments, check_in, room_service, loyalty'),
  source: Joi.string(),
  corrects_line_id: Joi.string().allow(null),
  created_at: Joi.date(),
}).meta(openApiComponent('FolioLine'));

const folioFields = {
  id: Joi.string(),
  hotel_id: Joi.string(),
  booking_id: Joi.string(),
  payer_kind: Joi.string().valid(...PAYER_KINDS),
  payer_name: Joi.string().allow(null),
  payer_inn: Joi.string().allow(null),
  created_by: Joi.string().allow(null),
  created_at: Joi.date(),
  balance: moneyOut,
};
export const folioSchema = Joi.object({ ...folioFields, lines: Joi.array().items(lineSchema) }).meta(
  openApiComponent('Folio'),
);

export const moveSchema = Joi.object({
  id: Joi.string(),
  line_id: Joi.string(),
  from_folio_id: Joi.string(),
  to_folio_id: Joi.string(),
  moved_by: Joi.string().allow(null),
  moved_at: Joi.date(),
}).meta(openApiComponent('FolioLineMove'));

export const settlementSchema = Joi.object({
  id: Joi.string(),
  booking_id: Joi.string(),
  decision: Joi.string().valid(...SETTLEMENT_DECISIONS),
  balance: moneyOut,
  note: Joi.string().allow(null),
  decided_by: Joi.string().allow(null),
  decided_at: Joi.date(),
}).meta(openApiComponent('FolioSettlement'));

export const bookingFoliosSchema = Joi.object({
  booking_id: Joi.string(),
  balance: moneyOut.description('The sum of every line of every folio of the booking'),
  business_date: Joi.string().description('The hotel’s current business date'),
  closed_through: Joi.string().allow(null),
  folios: Joi.array().items(folioSchema).description('The guest’s first, then the companies’'),
  moves: Joi.array().items(moveSchema),
  settlements: Joi.array().items(settlementSchema),
});
