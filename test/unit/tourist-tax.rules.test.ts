import { monthReport, reportCsv } from '../../src/modules/tourist-tax/tourist-tax.report';
import {
  baseOf,
  coveredBy,
  nightsOf,
  spread,
  legalMaximum,
  overlappingSeasons,
  rateOf,
  stayTax,
  yearAboveMaximum,
} from '../../src/modules/tourist-tax/tourist-tax.rules';
import type { TaxSettings } from '../../src/modules/tourist-tax/tourist-tax.types';

const settings = (fields: Partial<TaxSettings> = {}): TaxSettings => ({
  enabled: true,
  rate: '2',
  seasons: [],
  vat: 'none',
  ...fields,
});
const nights = (prices: Record<string, string>) => Object.entries(prices).map(([date, price]) => ({ date, price }));

describe('the base: the price of the lodging without VAT', () => {
  it('removes the VAT the price includes, to the kopeck', () => {
    expect(baseOf(1_200_000n, '20')).toBe(1_000_000n);
    expect(baseOf(1_000_00n, '22')).toBe(81_967n); // 1000 / 1.22 = 819.672…
    expect(baseOf(333_33n, '10')).toBe(30_303n); // 333.33 / 1.1 = 303.027…
  });

  it('takes the price whole without VAT or at 0 %', () => {
    expect(baseOf(777_77n, 'none')).toBe(777_77n);
    expect(baseOf(777_77n, '0')).toBe(777_77n);
  });
});

describe('the rate of a night', () => {
  it('the law allows 1 % in 2025, 2 % in 2026, 3 % in 2027, 4 % in 2028 and 5 % from 2029; nothing before', () => {
    expect([2024, 2025, 2026, 2027, 2028, 2029, 2035].map(legalMaximum)).toEqual([
      0n,
      100n,
      200n,
      300n,
      400n,
      500n,
      500n,
    ]);
  });

  it('names the first year of a period whose maximum the rate exceeds', () => {
    expect(yearAboveMaximum('3', '2026-12-20', '2027-01-10')).toBe(2026);
    expect(yearAboveMaximum('3', '2027-01-01', '2027-12-31')).toBeUndefined();
    expect(yearAboveMaximum('4.01', '2028-06-01', '2029-06-01')).toBe(2028);
    expect(yearAboveMaximum('5', '2029-01-01', '2031-01-01')).toBeUndefined();
  });

  it("is the season's on its nights, the hotel's elsewhere, and never above the year's maximum", () => {
    const rates = settings({ rate: '2', seasons: [{ from: '2026-06-01', to: '2026-08-31', rate: '1.5' }] });
    expect(rateOf(rates, '2026-05-31')).toBe(200n);
    expect(rateOf(rates, '2026-06-01')).toBe(150n);
    expect(rateOf(rates, '2026-08-31')).toBe(150n);
    expect(rateOf(settings({ rate: '5' }), '2028-12-31')).toBe(400n);
    expect(rateOf(settings({ rate: '5' }), '2029-01-01')).toBe(500n);
  });

  it('finds seasons that share a night', () => {
    const a = { from: '2026-06-01', to: '2026-06-30', rate: '1' };
    expect(overlappingSeasons([a, { from: '2026-07-01', to: '2026-07-31', rate: '2' }])).toBeUndefined();
    expect(overlappingSeasons([{ from: '2026-06-30', to: '2026-07-31', rate: '2' }, a])).toEqual([1, 0]);
  });
});

describe('the tax of a stay', () => {
  it('is the base times the rate, rounded to the kopeck (halves up)', () => {
    const tax = stayTax(settings({ rate: '2' }), nights({ '2026-03-01': '7777.25', '2026-03-02': '5000.00' }));
    expect(tax.per_night.map((n) => [n.base, n.rate, n.tax, n.minimum])).toEqual([
      ['7777.25', '2.00', '155.55', false], // 155.545 -> 155.55
      ['5000.00', '2.00', '100.00', false],
    ]);
    expect(tax.total).toBe('255.55');
  });

  it('removes the VAT before the rate', () => {
    const tax = stayTax(settings({ rate: '2', vat: '20' }), nights({ '2026-03-01': '12000.00' }));
    expect(tax.per_night[0]).toMatchObject({ base: '10000.00', tax: '200.00' });
  });

  it('is at least 100 roubles a taxed night: below that, each taxed night bears 100', () => {
    const cheap = stayTax(settings({ rate: '1' }), nights({ '2025-05-01': '3000.00', '2025-05-02': '3000.00' }));
    expect(cheap.per_night.map((n) => [n.tax, n.minimum])).toEqual([
      ['100.00', true],
      ['100.00', true],
    ]);
    expect(cheap.total).toBe('200.00');
  });

  it('compares the minimum with the whole stay, so a dear night covers a cheap one', () => {
    const tax = stayTax(settings({ rate: '2' }), nights({ '2026-03-01': '20000.00', '2026-03-02': '3000.00' }));
    expect(tax.per_night.map((n) => n.tax)).toEqual(['400.00', '60.00']);
    expect(tax.total).toBe('460.00');
  });

  it('a night of 2028 is taxed at 4 % at most, one of 2029 at 5 %', () => {
    const tax = stayTax(settings({ rate: '5' }), nights({ '2028-12-31': '10000.00', '2029-01-01': '10000.00' }));
    expect(tax.per_night.map((n) => [n.rate, n.tax])).toEqual([
      ['4.00', '400.00'],
      ['5.00', '500.00'],
    ]);
  });

  it('taxes no night before 2025, nor any when the hotel does not charge it', () => {
    const span = nights({ '2024-12-31': '10000.00', '2025-01-01': '10000.00' });
    expect(stayTax(settings({ rate: '1' }), span).per_night.map((n) => n.tax)).toEqual(['0.00', '100.00']);
    expect(stayTax(settings({ enabled: false }), span).total).toBe('0.00');
  });

  it('an exempt night bears nothing and counts for no minimum', () => {
    const stay = nights({ '2026-03-01': '3000.00', '2026-03-02': '3000.00', '2026-03-03': '3000.00' });
    const tax = stayTax(settings({ rate: '2' }), stay, (night) => (night <= '2026-03-02' ? 'student' : null));
    expect(tax.per_night.map((n) => [n.tax, n.exempt])).toEqual([
      ['0.00', 'student'],
      ['0.00', 'student'],
      ['100.00', null],
    ]);
    expect(tax.total).toBe('100.00');
  });
});

describe('a stay priced as a whole', () => {
  it('shares its price among the nights by their prices, or equally, to the kopeck', () => {
    expect(spread(1_000_00n, [1n, 1n, 1n])).toEqual([333_33n, 333_33n, 333_34n]);
    expect(spread(27_000_00n, [15_000_00n, 15_000_00n])).toEqual([13_500_00n, 13_500_00n]);
    expect(spread(10_000_00n, [9_001_00n, 5_000_00n])).toEqual([6_428_82n, 3_571_18n]);
    expect(spread(500n, [0n, 0n])).toEqual([250n, 250n]);
  });

  it('has the nights from check-in to the day before check-out, across months and years', () => {
    expect(nightsOf('2026-12-30', '2027-01-02')).toEqual(['2026-12-30', '2026-12-31', '2027-01-01']);
    expect(nightsOf('2028-02-28', '2028-03-01')).toEqual(['2028-02-28', '2028-02-29']);
  });

  it('is exempt on the nights its document covers only', () => {
    const covered = coveredBy({ category: 'disabled_1_2', document_date: '2026-03-02', valid_until: '2026-03-03' });
    expect(['2026-03-01', '2026-03-02', '2026-03-03', '2026-03-04'].map(covered)).toEqual([
      null,
      'disabled_1_2',
      'disabled_1_2',
      null,
    ]);
  });
});

describe('the monthly report', () => {
  const taxed = stayTax(settings({ rate: '2' }), nights({ '2026-03-31': '10000.00', '2026-04-01': '10000.00' }));
  const exempt = stayTax(
    settings({ rate: '2' }),
    nights({ '2026-04-01': '8000.00', '2026-04-02': '8000.00' }),
    () => 'combat_veteran',
  );

  it('counts the nights of the month stayed before today: the taxed with base and tax, the exempt by category', () => {
    expect(monthReport('2026-04', '2026-04-02', [taxed, exempt])).toEqual({
      month: '2026-04',
      base: '10000.00',
      tax: '200.00',
      taxable_nights: 1,
      exempt_nights: 1,
      exempt_by_category: [
        { category: 'combat_veteran', name: expect.stringContaining('боевых'), nights: 1, base: '8000.00' },
      ],
      stays: 2,
    });
  });

  it('as CSV: a header, the taxed nights, then a row per category, quoting what needs it', () => {
    const csv = reportCsv(monthReport('2026-04', '2026-05-01', [taxed, exempt]));
    expect(csv.split('\r\n')).toEqual([
      'month;category;name;nights;base;tax',
      '2026-04;taxable;Облагаемые ночи;1;10000.00;200.00',
      '2026-04;combat_veteran;Ветераны и инвалиды боевых действий;2;16000.00;0.00',
      '',
    ]);
  });
});
