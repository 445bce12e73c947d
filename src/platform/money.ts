import { BusinessRuleError } from './errors';

/**
 * Money for everything that counts it: integer minor units (cents, as bigint), its one spelling with two decimals,
 * percents in hundredths, and the cashier's rounding. Amounts come in and go out as decimal strings.
 */

/**
 * A malformed amount or percent: a BusinessRuleError, so one escaping to the HTTP layer answers 422 rather than 500,
 * with the code `pricing` its answers carried when this arithmetic was the pricing engine's.
 */
export class MalformedAmountError extends BusinessRuleError {
  constructor(message: string) {
    super(message, [message], 'pricing');
  }
}

// Money and percents share one format: an optional minus, digits, at most two decimals.
const HUNDREDTHS_PATTERN = /^(-?)(\d+)(?:\.(\d{1,2}))?$/;

function parseHundredths(value: string, refusal: string): bigint {
  const match = HUNDREDTHS_PATTERN.exec(value);
  if (!match) throw new MalformedAmountError(`${refusal}: "${value}"`);
  const [, sign, whole, fraction = ''] = match;
  const magnitude = BigInt(whole) * 100n + BigInt(fraction.padEnd(2, '0'));
  return sign ? -magnitude : magnitude;
}

function formatHundredths(hundredths: bigint): string {
  const magnitude = hundredths < 0n ? -hundredths : hundredths;
  const fraction = String(magnitude % 100n).padStart(2, '0');
  return `${hundredths < 0n ? '-' : ''}${magnitude / 100n}.${fraction}`;
}

/** The largest amount a money column (numeric(12,2)) holds, in cents: 9999999999.99. */
export const MAX_STORED_CENTS = 999_999_999_999n;

/** Whether an amount (a price, or a sum of payments) fits its money column, either sign. */
export function fitsMoneyColumn(cents: bigint): boolean {
  return cents <= MAX_STORED_CENTS && cents >= -MAX_STORED_CENTS;
}

/** "1234.5" -> 123450n cents. */
export function parseMoney(value: string): bigint {
  return parseHundredths(value, 'Некорректная сумма');
}

/** 123450n -> "1234.50": always two decimals, the one canonical spelling of an amount. */
export function formatMoney(cents: bigint): string {
  return formatHundredths(cents);
}

/** "12.5" -> 1250n, in hundredths of a percent, so percents with two decimals stay integers. */
export function parsePercent(value: string): bigint {
  return parseHundredths(value, 'Некорректный процент');
}

export function formatPercent(hundredthsOfPercent: bigint): string {
  return formatHundredths(hundredthsOfPercent);
}

/** numerator / denominator (denominator > 0) to the nearest integer, ties away from zero as cashiers round. */
function divideRoundingHalfAwayFromZero(numerator: bigint, denominator: bigint): bigint {
  const quotient = numerator / denominator;
  const remainder = numerator % denominator;
  const magnitude = remainder < 0n ? -remainder : remainder;
  if (magnitude * 2n < denominator) return quotient;
  return numerator < 0n ? quotient - 1n : quotient + 1n;
}

/** cents * percent / 100 to the whole cent; the percent is taken in hundredths, hence the 10000. */
export function applyPercent(cents: bigint, percent: string): bigint {
  return divideRoundingHalfAwayFromZero(cents * parsePercent(percent), 10000n);
}

/** An amount shared by `count` (ADR, RevPAR), to the kopeck as cashiers round; nothing shared by no one is 0. */
export function divideMoney(cents: bigint, count: number): bigint {
  return count > 0 ? divideRoundingHalfAwayFromZero(cents, BigInt(count)) : 0n;
}

export function sumMoney(amounts: Iterable<bigint>): bigint {
  let total = 0n;
  for (const amount of amounts) total += amount;
  return total;
}

export function atLeastZero(cents: bigint): bigint {
  return cents < 0n ? 0n : cents;
}
