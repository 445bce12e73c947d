import { AtolTaskError } from './errors';

/**
 * Money and quantities as integers (kopecks, thousandths of a unit), so a receipt's sums never carry floating error;
 * they become the driver's numbers only at the end, exactly as their decimal spelling.
 */

/** The largest amount a receipt, a line or a payment may carry: what a numeric(12,2) money column holds. */
export const MAX_KOPECKS = 999_999_999_999n;
const MAX_QUANTITY_THOUSANDTHS = 99_999_999n;

const DECIMAL = /^(\d{1,10})(?:\.(\d{1,2}))?$/;

/** `"1500.5"` -> 150050n; refuses anything but a non-negative decimal with at most two decimals. */
export function kopecksOf(value: unknown, path: string): bigint {
  const match = typeof value === 'string' ? DECIMAL.exec(value) : null;
  if (!match) throw new AtolTaskError(`Сумма должна быть числом с не более чем двумя знаками после точки`, path);
  const [, whole, fraction = ''] = match;
  return BigInt(whole) * 100n + BigInt(fraction.padEnd(2, '0'));
}

/** A positive quantity with at most three decimals, in thousandths. */
export function thousandthsOf(value: unknown, path: string): bigint {
  const scaled = typeof value === 'number' ? value * 1000 : NaN;
  const rounded = Math.round(scaled);
  // The tolerance absorbs binary noise only (0.1 * 1000 is 100.00000000000001), never a real fourth decimal.
  if (!Number.isFinite(scaled) || Math.abs(scaled - rounded) > 1e-6 || rounded <= 0) {
    throw new AtolTaskError('Количество должно быть положительным, не более трёх знаков после точки', path);
  }
  const thousandths = BigInt(rounded);
  if (thousandths > MAX_QUANTITY_THOUSANDTHS) throw new AtolTaskError('Количество слишком велико', path);
  return thousandths;
}

/** price × quantity to the kopeck, half a kopeck up (amounts here are never negative). */
export function lineKopecks(price: bigint, quantityThousandths: bigint): bigint {
  return (price * quantityThousandths + 500n) / 1000n;
}

export function formatKopecks(kopecks: bigint): string {
  return `${kopecks / 100n}.${String(kopecks % 100n).padStart(2, '0')}`;
}

/** The driver's number for an amount: the double whose shortest spelling is the exact decimal. */
export function roublesOf(kopecks: bigint): number {
  return Number(formatKopecks(kopecks));
}

export function quantityOf(thousandths: bigint): number {
  return Number(thousandths) / 1000;
}
