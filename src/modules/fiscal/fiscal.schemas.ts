import Joi from 'joi';
import {
  ATOL_PAYMENT_METHODS,
  ATOL_PAYMENT_OBJECTS,
  ATOL_PAYMENT_TYPES,
  ATOL_TAX_TYPES,
  ATOL_TAXATION_TYPES,
} from '../../integrations/atol';
import { openApiComponent } from '../../platform/http/components';
import { pageQueryKeys } from '../../platform/http/pagination';
import { calendarDate, dateSpan, MAX_WINDOW_DAYS, moneyOut } from '../../platform/http/schemas';
import { RECEIPT_OPERATIONS, RECEIPT_STATUSES, SOURCE_KINDS } from './fiscal.types';

export const receiptListQuery = Joi.object({
  status: Joi.string().valid(...RECEIPT_STATUSES),
  source_kind: Joi.string().valid(...SOURCE_KINDS),
  from: calendarDate,
  to: calendarDate,
  ...pageQueryKeys,
}).custom(dateSpan('from', 'to', { maxDays: MAX_WINDOW_DAYS }));

/** The driver's numbers are roubles with up to two decimals. */
const roubles = Joi.number();

const operatorSchema = Joi.object({
  name: Joi.string(),
  vatin: Joi.string().optional().description("The cashier's tax number"),
}).meta(openApiComponent('FiscalTaskOperator'));

const positionSchema = Joi.object({
  type: Joi.string().valid('position'),
  name: Joi.string(),
  price: roubles,
  quantity: Joi.number(),
  amount: roubles,
  tax: Joi.object({ type: Joi.string().valid(...ATOL_TAX_TYPES) }).meta(openApiComponent('FiscalTaskTax')),
  paymentMethod: Joi.string().valid(...ATOL_PAYMENT_METHODS),
  paymentObject: Joi.string().valid(...ATOL_PAYMENT_OBJECTS),
}).meta(openApiComponent('FiscalTaskPosition'));

const taskSchema = Joi.object({
  type: Joi.string().valid(...RECEIPT_OPERATIONS),
  taxationType: Joi.string().valid(...ATOL_TAXATION_TYPES),
  operator: operatorSchema,
  electronically: Joi.boolean().description('Only sent to the customer, not printed'),
  clientInfo: Joi.object({ emailOrPhone: Joi.string() })
    .optional()
    .meta(openApiComponent('FiscalTaskClient'))
    .description('Where the electronic receipt goes; absent without a customer contact'),
  items: Joi.array().items(positionSchema),
  payments: Joi.array().items(
    Joi.object({ type: Joi.string().valid(...ATOL_PAYMENT_TYPES), sum: roubles }).meta(
      openApiComponent('FiscalTaskPayment'),
    ),
  ),
  total: roubles,
})
  .description('The ATOL driver JSON task sent to the register')
  .meta(openApiComponent('FiscalTask'));

const fiscalSchema = Joi.object({
  fiscal_document_number: Joi.number().integer(),
  fiscal_document_sign: Joi.string(),
  fn_number: Joi.string(),
  shift_number: Joi.number().integer(),
  receipt_number: Joi.number().integer(),
  datetime: Joi.string().isoDate(),
  total: moneyOut,
})
  .allow(null)
  .description('The fiscal attributes the register returned; null until printed')
  .meta(openApiComponent('FiscalAttributes'));

export const receiptSchema = Joi.object({
  id: Joi.string().uuid(),
  hotel_id: Joi.string().uuid(),
  workstation_id: Joi.string().uuid(),
  device_id: Joi.string().uuid(),
  source_kind: Joi.string().valid(...SOURCE_KINDS),
  source_id: Joi.string().uuid(),
  operation: Joi.string().valid(...RECEIPT_OPERATIONS),
  status: Joi.string().valid(...RECEIPT_STATUSES),
  total: moneyOut,
  task: taskSchema,
  fiscal: fiscalSchema,
  error_code: Joi.string().allow(null).description('Why it was not printed (the agent protocol’s code)'),
  error_message: Joi.string().allow(null).description('Why it was not printed, in words for staff'),
  created_at: Joi.date(),
  updated_at: Joi.date(),
}).meta(openApiComponent('FiscalReceipt'));
