import fc from 'fast-check';
import {
  MalformedAmountError,
  applyPercent,
  atLeastZero,
  formatMoney,
  formatPercent,
  parseMoney,
  parsePercent,
  sumMoney,
} from '../../src/platform/money';

describe('parseMoney', () => {
  it.each([
    ['1234', 123400n],
    ['1234.5', 123450n],
    ['1234.50', 123450n],
    ['-10.25', -1025n],
    ['0', 0n],
    ['-0.00', 0n],
    ['0.05', 5n],
    ['007.5', 750n],
    ['-0.05', -5n],
    ['99999999999999999999.99', 9999999999999999999999n],
  ])('%j -> %p cents', (value, cents) => {
    expect(parseMoney(value)).toBe(cents);
  });

  it.each(['', ' 1', '1 ', '1.234', '1.', '.5', '+1', '--1', '1,50', '1e3', 'abc', 'NaN', '12.3.4', '١٢'])(
    'refuses %j',
    (value) => {
      expect(() => parseMoney(value)).toThrow(MalformedAmountError);
      expect(() => parseMoney(value)).toThrow('Некорректная сумма');
    },
  );
});

describe('formatMoney', () => {
  it.each([
    [123450n, '1234.50'],
    [-5n, '-0.05'],
    [0n, '0.00'],
    [-1025n, '-10.25'],
    [100n, '1.00'],
    [7n, '0.07'],
  ])('%p -> %j', (cents, value) => {
    expect(formatMoney(cents)).toBe(value);
  });

  it('gives the canonical spelling back for any accepted amount', () => {
    const amount = fc
      .tuple(fc.boolean(), fc.bigInt({ min: 0n, max: 10n ** 15n }), fc.constantFrom('', '.', '.0'), fc.nat(99))
      .map(([negative, whole, fractionStyle, fraction]) => {
        const digits = fractionStyle === '' ? '' : fractionStyle === '.' ? `.${fraction}` : `.${fraction % 10}0`;
        return `${negative ? '-' : ''}${whole}${digits}`;
      });
    fc.assert(
      fc.property(amount, (value) => {
        const canonical = formatMoney(parseMoney(value));
        expect(canonical).toMatch(/^-?(0|[1-9]\d*)\.\d{2}$/);
        expect(canonical).not.toBe('-0.00');
        expect(parseMoney(canonical)).toBe(parseMoney(value));
        expect(formatMoney(parseMoney(canonical))).toBe(canonical);
      }),
    );
  });

  it('round-trips any number of cents', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), (cents) => {
        expect(parseMoney(formatMoney(cents))).toBe(cents);
      }),
    );
  });
});

describe('percents', () => {
  it('parses into hundredths of a percent and formats back', () => {
    expect(parsePercent('12.5')).toBe(1250n);
    expect(parsePercent('-10')).toBe(-1000n);
    expect(formatPercent(3333n)).toBe('33.33');
  });

  it('refuses a percent with more than two decimals', () => {
    expect(() => parsePercent('33.333')).toThrow('Некорректный процент');
  });
});

describe('applyPercent', () => {
  it.each([
    [1n, '50', 1n], // 0.5 cent rounds away from zero
    [-1n, '50', -1n],
    [1n, '49.99', 0n],
    [-1n, '49.99', 0n],
    [333n, '33.33', 111n], // 110.9889
    [-333n, '33.33', -111n],
    [10000n, '-10', -1000n],
    [999n, '12.5', 125n], // 124.875
    [1000n, '0', 0n],
    [12345n, '100', 12345n],
    [5n, '10', 1n], // 0.5 exactly
    [-5n, '10', -1n],
    [4n, '10', 0n], // 0.4
  ])('%p cents * %s %% = %p cents', (cents, percent, result) => {
    expect(applyPercent(cents, percent)).toBe(result);
  });

  it('is exact where floating point drifts', () => {
    // 0.20 * 0.175 is 0.034999999999999996 in floating point, which would round down to 3 cents.
    expect(applyPercent(20n, '17.5')).toBe(4n);
    expect(applyPercent(10n ** 20n + 1n, '50')).toBe(5n * 10n ** 19n + 1n);
  });

  it('is within half a cent of the exact product and odd in its sign', () => {
    const percent = fc.integer({ min: -20000, max: 20000 }).map((hundredths) => formatPercent(BigInt(hundredths)));
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 12n), max: 10n ** 12n }), percent, (cents, percentValue) => {
        const result = applyPercent(cents, percentValue);
        const exactTimes10000 = cents * parsePercent(percentValue);
        const errorTimes10000 = result * 10000n - exactTimes10000;
        expect(errorTimes10000 <= 5000n && errorTimes10000 >= -5000n).toBe(true);
        expect(applyPercent(-cents, percentValue)).toBe(-result);
      }),
    );
  });
});

describe('helpers', () => {
  it('sums and clamps', () => {
    expect(sumMoney([])).toBe(0n);
    expect(sumMoney([100n, -30n, 5n])).toBe(75n);
    expect(atLeastZero(-1n)).toBe(0n);
    expect(atLeastZero(0n)).toBe(0n);
    expect(atLeastZero(42n)).toBe(42n);
  });
});
