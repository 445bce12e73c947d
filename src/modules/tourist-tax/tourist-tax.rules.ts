import type { VatRate } from '../../integrations/atol';
import { formatMoney, formatPercent, parseMoney, parsePercent, sumMoney } from '../../platform/money';
import type { ExemptionCategory, NightTax, PricedNight, StayTax, TaxSeason, TaxSettings } from './tourist-tax.types';

/** The tax is charged on the nights from this one on (Federal Law 176-FZ of 12.07.2024). */
const FIRST_TAXED_NIGHT = '2025-01-01';
/** The least tax of a taxable night, in kopecks: 100 roubles (art. 418.7). */
const MINIMUM_PER_NIGHT = 10_000n;

/** The tax of a stay without nights (an hourly one). */
export const NO_TOURIST_TAX: StayTax = { per_night: [], total: '0.00' };

/** The highest rate the law allows for the nights of a year (art. 418.6), in hundredths of a percent. */
export function legalMaximum(year: number): bigint {
  if (year < 2025) return 0n;
  return BigInt(Math.min(year - 2024, 5)) * 100n;
}

const yearOf = (date: string) => Number(date.slice(0, 4));

/** The first year of `from`..`to` whose legal maximum `rate` exceeds, if any. */
export function yearAboveMaximum(rate: string, from: string, to: string): number | undefined {
  const hundredths = parsePercent(rate);
  for (let year = Math.max(yearOf(from), 2025); year <= yearOf(to); year += 1)
    if (hundredths > legalMaximum(year)) return year;
  return undefined;
}

/** The seasons that share a night, as the pair of their indexes (they must not). */
export function overlappingSeasons(seasons: TaxSeason[]): [number, number] | undefined {
  const order = seasons
    .map((season, index) => ({ season, index }))
    .sort((a, b) => (a.season.from < b.season.from ? -1 : 1));
  for (let i = 1; i < order.length; i += 1)
    if (order[i].season.from <= order[i - 1].season.to) return [order[i - 1].index, order[i].index];
  return undefined;
}

/** The rate of a night: its season's, else the hotel's; never above the law's maximum for its year. */
export function rateOf(settings: Pick<TaxSettings, 'rate' | 'seasons'>, night: string): bigint {
  const season = settings.seasons.find((s) => s.from <= night && night <= s.to);
  const rate = parsePercent(season?.rate ?? settings.rate);
  const maximum = legalMaximum(yearOf(night));
  return rate > maximum ? maximum : rate;
}

/** a × b / c to the nearest integer, halves away from zero (the kopeck rounding of `src/platform/money`). */
function roundedRatio(a: bigint, b: bigint, c: bigint): bigint {
  const numerator = a * b;
  const quotient = numerator / c;
  const remainder = numerator % c;
  return remainder * 2n >= c ? quotient + 1n : quotient;
}

/** The price of a night without the VAT it includes (`none` and `0`: nothing to remove), to the kopeck. */
export function baseOf(price: bigint, vat: VatRate): bigint {
  if (vat === 'none' || vat === '0') return price;
  return roundedRatio(price, 100n, 100n + BigInt(vat));
}

/**
 * The tax of a stay, night by night. A night is exempt (the guest's category), untaxed (the tax off, a night before
 * 2025) or taxed: its base (the price without VAT) × its rate, to the kopeck. When the taxed nights' sum comes below
 * 100 roubles × their number, the law's minimum (art. 418.7), each taxed night bears 100 roubles; so a night's amount
 * is what is posted for it, and the nights add up to the stay's tax.
 */
export function stayTax(
  settings: TaxSettings,
  nights: PricedNight[],
  exemptOn: (night: string) => ExemptionCategory | null = () => null,
): StayTax {
  const computed = nights.map((night) => {
    const base = baseOf(parseMoney(night.price), settings.vat);
    const rate = settings.enabled && night.date >= FIRST_TAXED_NIGHT ? rateOf(settings, night.date) : 0n;
    const exempt = rate > 0n ? exemptOn(night.date) : null;
    const taxed = rate > 0n && !exempt;
    const tax = taxed ? roundedRatio(base, rate, 10_000n) : 0n;
    return { date: night.date, base, rate, tax, exempt, taxed };
  });
  const taxed = computed.filter((night) => night.taxed);
  const minimum = sumMoney(taxed.map((night) => night.tax)) < MINIMUM_PER_NIGHT * BigInt(taxed.length);
  const perNight: NightTax[] = computed.map((night) => ({
    date: night.date,
    base: formatMoney(night.base),
    rate: formatPercent(night.rate),
    tax: formatMoney(night.taxed && minimum ? MINIMUM_PER_NIGHT : night.tax),
    exempt: night.exempt,
    minimum: night.taxed && minimum,
  }));
  return { per_night: perNight, total: formatMoney(sumMoney(perNight.map((night) => parseMoney(night.tax)))) };
}

/**
 * `total` shared among nights in proportion to their weights (equal shares when every weight is nothing), to the
 * kopeck: each night its share rounded down, the kopecks left over to the last night, so the shares add up to it.
 */
export function spread(total: bigint, weights: bigint[]): bigint[] {
  if (weights.length === 0) return [];
  const sum = sumMoney(weights);
  const parts = sum > 0n ? weights : weights.map(() => 1n);
  const whole = sum > 0n ? sum : BigInt(weights.length);
  const shares = parts.map((weight) => (total * weight) / whole);
  shares[shares.length - 1] += total - sumMoney(shares);
  return shares;
}

/** The nights of a stay: `check_in` up to the day before `check_out`. */
export function nightsOf(checkIn: string, checkOut: string): string[] {
  const nights: string[] = [];
  const day = new Date(`${checkIn}T00:00:00Z`);
  while (day.toISOString().slice(0, 10) < checkOut) {
    nights.push(day.toISOString().slice(0, 10));
    day.setUTCDate(day.getUTCDate() + 1);
  }
  return nights;
}

export interface CoveringExemption {
  category: ExemptionCategory;
  document_date: string;
  valid_until: string | null;
}

/** The nights an exemption's document covers: from its date to its last valid night. */
export function coveredBy(exemption: CoveringExemption) {
  return (night: string): ExemptionCategory | null =>
    night >= exemption.document_date && (exemption.valid_until === null || night <= exemption.valid_until)
      ? exemption.category
      : null;
}
