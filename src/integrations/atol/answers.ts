import Joi from 'joi';
import { formatKopecks } from './amounts';
import { AtolTaskError } from './errors';
import type { FiscalAttributes } from './types';

const counter = Joi.number().integer().min(0).max(0xffffffff);
const digits = (max: number) =>
  Joi.alternatives()
    .conditional(Joi.string(), {
      then: Joi.string().pattern(new RegExp(`^\\d{1,${max}}$`)),
      otherwise: Joi.number().integer().min(0),
    })
    .custom(String);
const total = Joi.alternatives().conditional(Joi.string(), {
  then: Joi.string().pattern(/^\d{1,10}(\.\d{1,2})?$/),
  otherwise: Joi.number().min(0).max(9_999_999_999.99),
});

/** The agent's `fiscal_receipt` result: snake_case, as the protocol documents it. */
const agentFiscal = Joi.object({
  fiscal_document_number: counter.required(),
  fiscal_document_sign: digits(20).required(),
  fn_number: digits(20).required(),
  shift_number: counter.required(),
  receipt_number: counter.required(),
  datetime: Joi.date().iso().required(),
  total: total.required(),
}).unknown(true);

/** The driver's names of the same attributes (its `fiscalParams`), for an agent that passes them on untranslated. */
const DRIVER_NAMES: Record<keyof FiscalAttributes, string> = {
  fiscal_document_number: 'fiscalDocumentNumber',
  fiscal_document_sign: 'fiscalDocumentSign',
  fn_number: 'fnNumber',
  shift_number: 'shiftNumber',
  receipt_number: 'fiscalReceiptNumber',
  datetime: 'fiscalDocumentDateTime',
  total: 'total',
};

type Raw<T> = { [K in keyof T]: unknown };

/** Two decimals: the driver sends a double such as 1500.5, an agent may send the decimal string. */
function money(value: unknown): string {
  if (typeof value === 'number') return formatKopecks(BigInt(Math.round(value * 100)));
  const [whole, fraction = ''] = String(value).split('.');
  return formatKopecks(BigInt(whole) * 100n + BigInt(fraction.padEnd(2, '0')));
}

function normalised(fiscal: Raw<FiscalAttributes>): FiscalAttributes {
  return {
    fiscal_document_number: fiscal.fiscal_document_number as number,
    fiscal_document_sign: fiscal.fiscal_document_sign as string,
    fn_number: fiscal.fn_number as string,
    shift_number: fiscal.shift_number as number,
    receipt_number: fiscal.receipt_number as number,
    datetime: (fiscal.datetime as Date).toISOString(),
    total: money(fiscal.total),
  };
}

/**
 * The fiscal attributes of a printed receipt from what the desk answered: the agent's `{ fiscal: {...} }` (the
 * protocol's form, snake_case), the bare attributes, or the driver's `{ fiscalParams: {...} }` (camelCase). Throws
 * AtolTaskError when something required is missing or malformed, so nothing half-known is stored as printed.
 */
export function parseFiscalResult(answer: unknown): FiscalAttributes {
  const body = (typeof answer === 'object' && answer !== null ? answer : {}) as Record<string, unknown>;
  const driver = body.fiscalParams as Record<string, unknown> | undefined;
  const fiscal =
    typeof driver === 'object' && driver !== null
      ? Object.fromEntries(Object.entries(DRIVER_NAMES).map(([ours, theirs]) => [ours, driver[theirs]]))
      : (body.fiscal ?? body);
  const { error, value } = agentFiscal.validate(fiscal, { convert: true });
  if (error) throw new AtolTaskError(`Касса вернула неполные фискальные реквизиты: ${error.message}`, 'fiscal');
  return normalised(value as Raw<FiscalAttributes>);
}
