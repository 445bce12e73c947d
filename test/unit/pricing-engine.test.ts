import fc from 'fast-check';
import {
  MAX_HOURS,
  MAX_NIGHTS,
  PricingError,
  quoteHours,
  quoteNights,
  type Fee,
  type OverridePrice,
  type PeriodPrice,
  type PriceSources,
  type Quote,
  type TariffRule,
} from '../../src/modules/pricing/pricing.engine';
import { formatMoney, formatPercent, parseMoney } from '../../src/platform/money';

const summer: PeriodPrice = {
  periodId: 'summer',
  dateFrom: '2025-06-01',
  dateTo: '2025-08-31',
  price: '150.00',
  hourlyPrice: '15.00',
};

function sourcesWith(extra: Partial<PriceSources> = {}): PriceSources {
  return { basePrice: '100.00', baseHourlyPrice: '10.00', periods: [summer], overrides: [], ...extra };
}

function override(date: string, price: string | null, hourlyPrice: string | null = null): OverridePrice {
  return { overrideId: `override-${date}`, date, price, hourlyPrice };
}

const tenPercentOff: TariffRule = { tariffId: 'nonrefundable', adjustmentType: 'percent', adjustmentValue: '-10' };

/** date, source, price of each line: the columns most tests look at. */
function pricedDates(quote: Quote): [string, string, string][] {
  return quote.lines.map((line) => [line.date, line.source, line.price]);
}

describe('quoteNights: price precedence', () => {
  it('prices each night from check-in up to, not including, check-out at the base', () => {
    const quote = quoteNights({ checkIn: '2025-05-10', checkOut: '2025-05-12', sources: sourcesWith() });
    expect(quote).toEqual({
      kind: 'nightly',
      units: 2,
      lines: [
        {
          date: '2025-05-10',
          source: 'base',
          sourceId: null,
          basePrice: '100.00',
          tariffAdjustment: '0.00',
          price: '100.00',
        },
        {
          date: '2025-05-11',
          source: 'base',
          sourceId: null,
          basePrice: '100.00',
          tariffAdjustment: '0.00',
          price: '100.00',
        },
      ],
      subtotal: '200.00',
      discountPercent: '0.00',
      discountAmount: '0.00',
      fees: [],
      feesTotal: '0.00',
      total: '200.00',
    });
    expect(quote.lines[0]).not.toHaveProperty('hour');
    expect(quote.lines[0]).not.toHaveProperty('startsAt');
  });

  it('prefers the override to the period and the period to the base', () => {
    const quote = quoteNights({
      checkIn: '2025-05-31',
      checkOut: '2025-06-03',
      sources: sourcesWith({ overrides: [override('2025-06-02', '300')] }),
    });
    expect(pricedDates(quote)).toEqual([
      ['2025-05-31', 'base', '100.00'],
      ['2025-06-01', 'period', '150.00'],
      ['2025-06-02', 'override', '300.00'],
    ]);
    expect(quote.lines.map((line) => line.sourceId)).toEqual([null, 'summer', 'override-2025-06-02']);
    expect(quote.subtotal).toBe('550.00');
  });

  it('falls through a null override price to the period, and a null period price to the base', () => {
    const quote = quoteNights({
      checkIn: '2025-06-01',
      checkOut: '2025-06-02',
      sources: sourcesWith({ overrides: [override('2025-06-01', null, '99.00')] }),
    });
    expect(pricedDates(quote)).toEqual([['2025-06-01', 'period', '150.00']]);

    const hourlyOnlyPeriod = { ...summer, price: null };
    const fromBase = quoteNights({
      checkIn: '2025-06-01',
      checkOut: '2025-06-02',
      sources: sourcesWith({ periods: [hourlyOnlyPeriod], overrides: [override('2025-06-01', null)] }),
    });
    expect(pricedDates(fromBase)).toEqual([['2025-06-01', 'base', '100.00']]);
  });

  it('counts both ends of a period as inside it', () => {
    const quote = quoteNights({ checkIn: '2025-08-30', checkOut: '2025-09-02', sources: sourcesWith() });
    expect(pricedDates(quote)).toEqual([
      ['2025-08-30', 'period', '150.00'],
      ['2025-08-31', 'period', '150.00'],
      ['2025-09-01', 'base', '100.00'],
    ]);
  });

  it('applies an override to its night only', () => {
    const quote = quoteNights({
      checkIn: '2025-05-10',
      checkOut: '2025-05-13',
      sources: sourcesWith({ overrides: [override('2025-05-11', '80.5')] }),
    });
    expect(pricedDates(quote)).toEqual([
      ['2025-05-10', 'base', '100.00'],
      ['2025-05-11', 'override', '80.50'],
      ['2025-05-12', 'base', '100.00'],
    ]);
    expect(quote.total).toBe('280.50');
  });

  it('ignores periods and overrides outside the stay', () => {
    const quote = quoteNights({
      checkIn: '2025-01-10',
      checkOut: '2025-01-11',
      sources: sourcesWith({ overrides: [override('2025-01-09', '1'), override('2025-01-11', '1')] }),
    });
    expect(pricedDates(quote)).toEqual([['2025-01-10', 'base', '100.00']]);
  });
});

describe('quoteNights: calendar', () => {
  it.each([
    ['2024-02-28', '2024-03-01', ['2024-02-28', '2024-02-29']],
    ['2025-02-28', '2025-03-01', ['2025-02-28']],
    ['2024-12-31', '2025-01-02', ['2024-12-31', '2025-01-01']],
    // The nights of European and American DST changes are ordinary nights.
    ['2025-03-29', '2025-04-01', ['2025-03-29', '2025-03-30', '2025-03-31']],
    ['2025-11-01', '2025-11-03', ['2025-11-01', '2025-11-02']],
  ])('%s to %s is the nights %j', (checkIn, checkOut, nights) => {
    const quote = quoteNights({ checkIn, checkOut, sources: sourcesWith() });
    expect(quote.lines.map((line) => line.date)).toEqual(nights);
    expect(quote.units).toBe(nights.length);
  });

  it.each([
    ['2025-05-10', '2025-05-10'],
    ['2025-05-10', '2025-05-09'],
  ])('refuses check-in %s with check-out %s', (checkIn, checkOut) => {
    expect(() => quoteNights({ checkIn, checkOut, sources: sourcesWith() })).toThrow(PricingError);
    expect(() => quoteNights({ checkIn, checkOut, sources: sourcesWith() })).toThrow(
      'Дата выезда должна быть позже даты заезда',
    );
  });

  it.each(['2025-02-30', '2025-13-01', '2025-5-10', '10.05.2025', '2025-05-10T00:00:00Z', ''])(
    'refuses the date %j',
    (date) => {
      expect(() => quoteNights({ checkIn: date, checkOut: '2026-01-01', sources: sourcesWith() })).toThrow(
        'Некорректная дата заезда',
      );
      expect(() => quoteNights({ checkIn: '2025-01-01', checkOut: date, sources: sourcesWith() })).toThrow(
        'Некорректная дата выезда',
      );
    },
  );

  it(`takes ${MAX_NIGHTS} nights and refuses one more`, () => {
    expect(quoteNights({ checkIn: '2024-01-01', checkOut: '2025-01-01', sources: sourcesWith() }).units).toBe(366);
    expect(() => quoteNights({ checkIn: '2024-01-01', checkOut: '2025-01-02', sources: sourcesWith() })).toThrow(
      PricingError,
    );
  });

  it('refuses a malformed price as a PricingError', () => {
    expect(() =>
      quoteNights({ checkIn: '2025-05-10', checkOut: '2025-05-11', sources: sourcesWith({ basePrice: '100,00' }) }),
    ).toThrow(PricingError);
  });
});

describe('quoteNights: tariff, discount, fees', () => {
  const stay = { checkIn: '2025-05-31', checkOut: '2025-06-02', sources: sourcesWith() };

  it('takes a percent tariff off each night', () => {
    const quote = quoteNights({ ...stay, tariff: tenPercentOff });
    expect(quote.lines.map((line) => [line.basePrice, line.tariffAdjustment, line.price])).toEqual([
      ['100.00', '-10.00', '90.00'],
      ['150.00', '-15.00', '135.00'],
    ]);
    expect(quote.subtotal).toBe('225.00');
  });

  it('rounds a percent tariff to the cent per night, half away from zero', () => {
    const quote = quoteNights({
      ...stay,
      sources: sourcesWith({ basePrice: '99.99', periods: [] }),
      tariff: { tariffId: 't', adjustmentType: 'percent', adjustmentValue: '-12.5' },
    });
    // 99.99 * 12.5 % = 12.49875
    expect(quote.lines[0]).toMatchObject({ tariffAdjustment: '-12.50', price: '87.49' });
    expect(quote.subtotal).toBe('174.98');
  });

  it('adds a fixed tariff to each night', () => {
    const quote = quoteNights({
      ...stay,
      tariff: { tariffId: 'breakfast', adjustmentType: 'fixed', adjustmentValue: '20' },
    });
    expect(quote.lines.map((line) => [line.tariffAdjustment, line.price])).toEqual([
      ['20.00', '120.00'],
      ['20.00', '170.00'],
    ]);
    expect(quote.total).toBe('290.00');
  });

  it('clamps a night at 0 when a negative fixed tariff exceeds its price, reporting the adjustment actually made', () => {
    const quote = quoteNights({
      ...stay,
      tariff: { tariffId: 'promo', adjustmentType: 'fixed', adjustmentValue: '-120' },
    });
    expect(quote.lines.map((line) => [line.basePrice, line.tariffAdjustment, line.price])).toEqual([
      ['100.00', '-100.00', '0.00'],
      ['150.00', '-120.00', '30.00'],
    ]);
    expect(quote.subtotal).toBe('30.00');
  });

  it('discounts the subtotal, then adds the undiscounted fees', () => {
    const fees: Fee[] = [
      { kind: 'early_checkin', amount: '30' },
      { kind: 'late_checkout', amount: '20.5' },
    ];
    const quote = quoteNights({ ...stay, tariff: tenPercentOff, discountPercent: '10', fees });
    expect(quote).toMatchObject({
      subtotal: '225.00',
      discountPercent: '10.00',
      discountAmount: '-22.50',
      fees: [
        { kind: 'early_checkin', amount: '30.00' },
        { kind: 'late_checkout', amount: '20.50' },
      ],
      feesTotal: '50.50',
      total: '253.00',
    });
  });

  it('rounds the discount to the cent, half away from zero', () => {
    const quote = quoteNights({
      checkIn: '2025-05-01',
      checkOut: '2025-05-04',
      sources: sourcesWith({ basePrice: '111.11' }),
      discountPercent: '12.5',
    });
    // 333.33 * 12.5 % = 41.66625
    expect(quote).toMatchObject({ subtotal: '333.33', discountAmount: '-41.67', total: '291.66' });
  });

  it('takes a 100 % discount, leaving the fees', () => {
    const quote = quoteNights({ ...stay, discountPercent: '100', fees: [{ kind: 'late_checkout', amount: '15' }] });
    expect(quote).toMatchObject({ discountAmount: '-250.00', total: '15.00' });
  });

  it.each(['-1', '100.01', '150', '10.005', 'ten'])('refuses the discount %j', (discountPercent) => {
    expect(() => quoteNights({ ...stay, discountPercent })).toThrow(PricingError);
  });
});

describe('quoteHours', () => {
  const moscow = 'Europe/Moscow';

  it('prices 3 hours inside one day at the hourly base', () => {
    const quote = quoteHours({
      startAt: new Date('2025-05-10T09:00:00Z'),
      endAt: new Date('2025-05-10T12:00:00Z'),
      timeZone: moscow,
      sources: sourcesWith(),
    });
    expect(quote.kind).toBe('hourly');
    expect(quote.units).toBe(3);
    expect(quote.lines[0]).toEqual({
      date: '2025-05-10',
      hour: 12,
      startsAt: '2025-05-10T09:00:00.000Z',
      source: 'base',
      sourceId: null,
      basePrice: '10.00',
      tariffAdjustment: '0.00',
      price: '10.00',
    });
    expect(quote.lines.map((line) => [line.hour, line.startsAt])).toEqual([
      [12, '2025-05-10T09:00:00.000Z'],
      [13, '2025-05-10T10:00:00.000Z'],
      [14, '2025-05-10T11:00:00.000Z'],
    ]);
    expect(quote.total).toBe('30.00');
  });

  it('prices the hours after local midnight by the next date', () => {
    // 22:00-02:00 in Moscow (UTC+3, no DST); only the second date has an override.
    const quote = quoteHours({
      startAt: new Date('2025-05-10T19:00:00Z'),
      endAt: new Date('2025-05-10T23:00:00Z'),
      timeZone: moscow,
      sources: sourcesWith({ overrides: [override('2025-05-11', '500', '25')] }),
    });
    expect(quote.lines.map((line) => [line.date, line.hour, line.source, line.price])).toEqual([
      ['2025-05-10', 22, 'base', '10.00'],
      ['2025-05-10', 23, 'base', '10.00'],
      ['2025-05-11', 0, 'override', '25.00'],
      ['2025-05-11', 1, 'override', '25.00'],
    ]);
    expect(quote.subtotal).toBe('70.00');
  });

  it('bills a started hour as a whole hour', () => {
    const quoteFor = (endAt: string): Quote =>
      quoteHours({
        startAt: new Date('2025-05-10T19:00:00Z'),
        endAt: new Date(endAt),
        timeZone: moscow,
        sources: sourcesWith(),
      });
    expect(quoteFor('2025-05-10T19:00:01Z').units).toBe(1);
    expect(quoteFor('2025-05-10T20:00:00Z').units).toBe(1);
    expect(quoteFor('2025-05-10T20:01:00Z').units).toBe(2);
    expect(quoteFor('2025-05-10T20:01:00Z').total).toBe('20.00');
  });

  it('follows a half-hour zone: in Asia/Kolkata the date changes at 18:30Z', () => {
    const quote = quoteHours({
      startAt: new Date('2025-05-10T18:00:00Z'),
      endAt: new Date('2025-05-10T20:00:00Z'),
      timeZone: 'Asia/Kolkata',
      sources: sourcesWith({ overrides: [override('2025-05-11', null, '40')] }),
    });
    // 23:30 and 00:30 local.
    expect(quote.lines.map((line) => [line.date, line.hour, line.source, line.price])).toEqual([
      ['2025-05-10', 23, 'base', '10.00'],
      ['2025-05-11', 0, 'override', '40.00'],
    ]);
  });

  it('skips the local hour a DST change skips', () => {
    // Berlin jumps from 02:00 to 03:00 at 01:00Z on 2025-03-30.
    const quote = quoteHours({
      startAt: new Date('2025-03-30T00:00:00Z'),
      endAt: new Date('2025-03-30T03:00:00Z'),
      timeZone: 'Europe/Berlin',
      sources: sourcesWith(),
    });
    expect(quote.lines.map((line) => line.hour)).toEqual([1, 3, 4]);
  });

  it('uses the period hourly price, and applies the tariff per hour', () => {
    const quote = quoteHours({
      startAt: new Date('2025-07-01T10:00:00Z'),
      endAt: new Date('2025-07-01T12:00:00Z'),
      timeZone: moscow,
      sources: sourcesWith(),
      tariff: { tariffId: 'cleaning', adjustmentType: 'fixed', adjustmentValue: '2.5' },
      fees: [{ kind: 'early_checkin', amount: '5' }],
    });
    expect(quote.lines.map((line) => [line.source, line.basePrice, line.tariffAdjustment, line.price])).toEqual([
      ['period', '15.00', '2.50', '17.50'],
      ['period', '15.00', '2.50', '17.50'],
    ]);
    expect(quote.total).toBe('40.00');
  });

  it('refuses when no hourly price is set for an hour', () => {
    const noHourly = sourcesWith({ baseHourlyPrice: null, periods: [{ ...summer, hourlyPrice: null }] });
    const request = {
      startAt: new Date('2025-07-01T10:00:00Z'),
      endAt: new Date('2025-07-01T11:00:00Z'),
      timeZone: moscow,
    };
    expect(() => quoteHours({ ...request, sources: noHourly })).toThrow(PricingError);
    expect(() => quoteHours({ ...request, sources: noHourly })).toThrow('Почасовая цена не задана');
    const withOverride = { ...noHourly, overrides: [override('2025-07-01', null, '12')] };
    expect(quoteHours({ ...request, sources: withOverride }).total).toBe('12.00');
  });

  it('refuses an end not after the start, an overlong stay, a bad instant and an unknown zone', () => {
    const at = (iso: string): Date => new Date(iso);
    const sources = sourcesWith();
    const start = at('2025-05-10T10:00:00Z');
    expect(() => quoteHours({ startAt: start, endAt: start, timeZone: moscow, sources })).toThrow(PricingError);
    expect(() => quoteHours({ startAt: start, endAt: at('2025-05-10T09:00:00Z'), timeZone: moscow, sources })).toThrow(
      PricingError,
    );
    const longest = new Date(start.getTime() + MAX_HOURS * 3_600_000);
    expect(quoteHours({ startAt: start, endAt: longest, timeZone: moscow, sources }).units).toBe(MAX_HOURS);
    const tooLong = new Date(longest.getTime() + 1);
    expect(() => quoteHours({ startAt: start, endAt: tooLong, timeZone: moscow, sources })).toThrow(PricingError);
    expect(() => quoteHours({ startAt: start, endAt: at('nonsense'), timeZone: moscow, sources })).toThrow(
      PricingError,
    );
    expect(() =>
      quoteHours({ startAt: start, endAt: at('2025-05-10T11:00:00Z'), timeZone: 'Mars/Olympus', sources }),
    ).toThrow(PricingError);
  });
});

describe('quote invariants (property-based)', () => {
  const DAY_MS = 86_400_000;
  const EPOCH = Date.UTC(2024, 0, 1);
  const dayString = (day: number): string => new Date(EPOCH + day * DAY_MS).toISOString().slice(0, 10);

  const money = (max: bigint) => fc.bigInt({ min: 0n, max }).map(formatMoney);
  const nullableMoney = fc.option(money(10_000_00n), { nil: null });
  const percent = (min: number, max: number) =>
    fc.integer({ min, max }).map((hundredths) => formatPercent(BigInt(hundredths)));

  // One period per 60-day slot, so that no two periods overlap.
  const periods = fc.uniqueArray(fc.integer({ min: 0, max: 9 }), { maxLength: 4 }).chain((slots) =>
    fc.tuple(
      ...slots.map((slot) =>
        fc
          .record({
            start: fc.integer({ min: 0, max: 30 }),
            length: fc.integer({ min: 0, max: 29 }),
            price: nullableMoney,
            hourlyPrice: nullableMoney,
          })
          .map(({ start, length, price, hourlyPrice }) => ({
            periodId: `period-${slot}`,
            dateFrom: dayString(slot * 60 + start),
            dateTo: dayString(slot * 60 + start + length),
            price,
            hourlyPrice,
          })),
      ),
    ),
  );

  const overrides = fc.uniqueArray(
    fc.record({ day: fc.integer({ min: 0, max: 600 }), price: nullableMoney, hourlyPrice: nullableMoney }),
    { selector: (entry) => entry.day, maxLength: 30 },
  );

  const sources: fc.Arbitrary<PriceSources> = fc
    .record({ basePrice: money(10_000_00n), baseHourlyPrice: money(1_000_00n), periods, overrides })
    .map(({ overrides: entries, ...rest }) => ({
      ...rest,
      overrides: entries.map(({ day, price, hourlyPrice }) => ({
        overrideId: `override-${day}`,
        date: dayString(day),
        price,
        hourlyPrice,
      })),
    }));

  const tariff: fc.Arbitrary<TariffRule | undefined> = fc.option(
    fc.oneof(
      percent(-100_00, 100_00).map((value) => ({
        tariffId: 'p',
        adjustmentType: 'percent' as const,
        adjustmentValue: value,
      })),
      fc.bigInt({ min: -20_000_00n, max: 20_000_00n }).map((value) => ({
        tariffId: 'f',
        adjustmentType: 'fixed' as const,
        adjustmentValue: formatMoney(value),
      })),
    ),
    { nil: undefined },
  );

  const fees = fc.array(
    fc.record({ kind: fc.constantFrom('early_checkin' as const, 'late_checkout' as const), amount: money(5_000_00n) }),
    { maxLength: 2 },
  );

  function expectConsistent(quote: Quote): void {
    const linePrices = quote.lines.map((line) => parseMoney(line.price));
    expect(quote.units).toBe(quote.lines.length);
    expect(linePrices.every((price) => price >= 0n)).toBe(true);
    for (const line of quote.lines) {
      expect(parseMoney(line.basePrice) + parseMoney(line.tariffAdjustment)).toBe(parseMoney(line.price));
    }
    expect(parseMoney(quote.subtotal)).toBe(linePrices.reduce((sum, price) => sum + price, 0n));
    expect(parseMoney(quote.discountAmount) <= 0n).toBe(true);
    expect(parseMoney(quote.feesTotal)).toBe(quote.fees.reduce((sum, fee) => sum + parseMoney(fee.amount), 0n));
    expect(parseMoney(quote.total)).toBe(
      parseMoney(quote.subtotal) + parseMoney(quote.discountAmount) + parseMoney(quote.feesTotal),
    );
  }

  it('nightly quotes add up, never go below 0 per night and have one line per night', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 550 }),
        fc.integer({ min: 1, max: 60 }),
        sources,
        tariff,
        percent(0, 100_00),
        fees,
        (firstDay, nights, priceSources, tariffRule, discountPercent, feeList) => {
          const quote = quoteNights({
            checkIn: dayString(firstDay),
            checkOut: dayString(firstDay + nights),
            sources: priceSources,
            tariff: tariffRule,
            discountPercent,
            fees: feeList,
          });
          expectConsistent(quote);
          expect(quote.lines.map((line) => line.date)).toEqual(
            Array.from({ length: nights }, (_, night) => dayString(firstDay + night)),
          );
        },
      ),
    );
  });

  it('hourly quotes add up and have one line per started hour', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 500 * 24 * 60 }),
        fc.integer({ min: 1, max: 72 * 60 }),
        fc.constantFrom('Europe/Moscow', 'Asia/Kolkata', 'Europe/Berlin', 'America/New_York', 'UTC'),
        sources,
        tariff,
        percent(0, 100_00),
        fees,
        (startMinute, minutes, timeZone, priceSources, tariffRule, discountPercent, feeList) => {
          const startAt = new Date(EPOCH + startMinute * 60_000);
          const endAt = new Date(startAt.getTime() + minutes * 60_000);
          const quote = quoteHours({
            startAt,
            endAt,
            timeZone,
            sources: priceSources,
            tariff: tariffRule,
            discountPercent,
            fees: feeList,
          });
          expectConsistent(quote);
          expect(quote.units).toBe(Math.ceil(minutes / 60));
          expect(quote.lines.map((line) => line.startsAt)).toEqual(
            Array.from({ length: quote.units }, (_, hour) =>
              new Date(startAt.getTime() + hour * 3_600_000).toISOString(),
            ),
          );
        },
      ),
    );
  });
});
