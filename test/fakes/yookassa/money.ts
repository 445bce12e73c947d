import type { Amount } from '../../../src/integrations/yookassa';
import { invalidRequest } from './errors';

/** An amount in minor units (kopecks), so sums and comparisons are exact. */
export interface Money {
  minor: number;
  currency: string;
}

const AMOUNT_VALUE = /^\d{1,12}(\.\d{1,2})?$/;
const CURRENCY = /^[A-Z]{3}$/;

/** Reads `{ value, currency }` as YooKassa does: a positive decimal string with at most two decimals. */
export function parseAmount(input: unknown, parameter = 'amount'): Money {
  if (input === null || typeof input !== 'object')
    throw invalidRequest('Amount is missing or not an object', parameter);
  const { value, currency } = input as Record<string, unknown>;
  if (typeof value !== 'string' || !AMOUNT_VALUE.test(value)) {
    throw invalidRequest('Amount value must be a decimal string with at most two decimals', `${parameter}.value`);
  }
  if (typeof currency !== 'string' || !CURRENCY.test(currency)) {
    throw invalidRequest('Currency must be a three-letter ISO 4217 code', `${parameter}.currency`);
  }
  const minor = minorUnits(value);
  if (minor <= 0) throw invalidRequest('Amount must be above zero', `${parameter}.value`);
  return { minor, currency };
}

export function toAmount({ minor, currency }: Money): Amount {
  return { value: `${Math.floor(minor / 100)}.${String(minor % 100).padStart(2, '0')}`, currency };
}

/** An amount this fake wrote itself, so known to be well formed (it may be zero, like a refunded amount). */
export function fromAmount({ value, currency }: Amount): Money {
  return { minor: minorUnits(value), currency };
}

function minorUnits(value: string): number {
  const [whole, fraction = ''] = value.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}
