import { formatMoney, parseMoney } from '../../platform/money';
import { EXEMPTION_CATEGORIES, EXEMPTION_CODES, type ExemptionCategory, type StayTax } from './tourist-tax.types';

/**
 * The month of the declaration (art. 418.8: the tax is declared by quarter, its sums by month): the nights of the month
 * stayed (before the hotel's today), the base and tax of those taxed, and the exempt ones by category with their base.
 */
export function monthReport(month: string, today: string, stays: StayTax[]) {
  let base = 0n;
  let tax = 0n;
  let taxable = 0;
  const exempt = new Map<ExemptionCategory, { nights: number; base: bigint }>();
  let counted = 0;
  for (const stay of stays) {
    const nights = stay.per_night.filter((night) => night.date.startsWith(month) && night.date < today);
    if (nights.length > 0) counted += 1;
    for (const night of nights) {
      if (night.exempt) {
        const entry = exempt.get(night.exempt) ?? { nights: 0, base: 0n };
        exempt.set(night.exempt, { nights: entry.nights + 1, base: entry.base + parseMoney(night.base) });
      } else if (parseMoney(night.rate) > 0n) {
        taxable += 1;
        base += parseMoney(night.base);
        tax += parseMoney(night.tax);
      }
    }
  }
  const categories = EXEMPTION_CODES.filter((code) => exempt.has(code));
  return {
    month,
    base: formatMoney(base),
    tax: formatMoney(tax),
    taxable_nights: taxable,
    exempt_nights: categories.reduce((sum, code) => sum + exempt.get(code)!.nights, 0),
    exempt_by_category: categories.map((category) => ({
      category,
      name: EXEMPTION_CATEGORIES[category],
      nights: exempt.get(category)!.nights,
      base: formatMoney(exempt.get(category)!.base),
    })),
    stays: counted,
  };
}

export type MonthReport = ReturnType<typeof monthReport>;

/** The report's table: a header, the taxed nights' totals, then one row per exempt category (its CSV and XLSX). */
export function reportRows(report: MonthReport): string[][] {
  return [
    ['month', 'category', 'name', 'nights', 'base', 'tax'],
    [report.month, 'taxable', 'Облагаемые ночи', String(report.taxable_nights), report.base, report.tax],
    ...report.exempt_by_category.map((entry) => [
      report.month,
      entry.category,
      entry.name,
      String(entry.nights),
      entry.base,
      '0.00',
    ]),
  ];
}

/** The report as CSV (`;`-separated, as Russian spreadsheets read it): the totals, then one row per category. */
export function reportCsv(report: MonthReport): string {
  return (
    reportRows(report)
      .map((row) => row.map((cell) => (/[;"\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell)).join(';'))
      .join('\r\n') + '\r\n'
  );
}
