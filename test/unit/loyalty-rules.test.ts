import { expiryOf, nextTier, nightsOf, pointsFor, remainingOf, tierFor } from '../../src/modules/loyalty/loyalty.rules';

const at = (iso: string) => new Date(iso);
const earned = (id: string, points: number, expires: string | null, created = '2026-01-01T00:00:00Z') => ({
  id,
  points,
  expires_at: expires ? at(expires) : null,
  created_at: at(created),
});

describe('loyalty rules', () => {
  it('earns whole points at a rate per 100 of the cost in cents, never for nothing', () => {
    expect(pointsFor(1_234_567n, '5.00')).toBe(617);
    expect(pointsFor(9_999n, '1')).toBe(0);
    expect(pointsFor(10_000n, '2.5')).toBe(2);
    expect(pointsFor(0n, '10')).toBe(0);
    expect(pointsFor(-500n, '10')).toBe(0);
  });

  it('puts a guest in the highest tier whose threshold they reach, and names the next one', () => {
    const tiers = [
      { name: 'gold', threshold: '20.00' },
      { name: 'base', threshold: '0.00' },
      { name: 'silver', threshold: '5.00' },
    ];
    expect(tierFor(tiers, 0)?.name).toBe('base');
    expect(tierFor(tiers, 4.99)?.name).toBe('base');
    expect(tierFor(tiers, 5)?.name).toBe('silver');
    expect(tierFor(tiers, 25)?.name).toBe('gold');
    expect(nextTier(tiers, 5)?.name).toBe('gold');
    expect(nextTier(tiers, 20)).toBeUndefined();
  });

  it('counts nights by calendar dates, none for an hourly stay', () => {
    expect(nightsOf({ check_in: '2026-03-30', check_out: '2026-04-02' })).toBe(3);
    expect(nightsOf({ check_in: null, check_out: null })).toBe(0);
  });

  it('dates expiry by calendar months, kept within a shorter month, or never', () => {
    expect(expiryOf(at('2026-01-31T10:00:00Z'), 1)?.toISOString()).toBe('2026-02-28T10:00:00.000Z');
    expect(expiryOf(at('2027-12-31T10:00:00Z'), 2)?.toISOString()).toBe('2028-02-29T10:00:00.000Z');
    expect(expiryOf(at('2026-05-15T10:00:00Z'), 24)?.toISOString()).toBe('2028-05-15T10:00:00.000Z');
    expect(expiryOf(at('2026-05-15T10:00:00Z'), null)).toBeNull();
  });

  it('spends the points that expire soonest first, those that never expire last', () => {
    const rows = [
      earned('never', 50, null),
      earned('late', 100, '2027-06-01T00:00:00Z'),
      earned('soon', 100, '2026-06-01T00:00:00Z', '2026-02-01T00:00:00Z'),
    ];
    const left = (spent: number) =>
      Object.fromEntries(remainingOf(rows, spent).map(({ row, remaining }) => [row.id, remaining]));
    expect(left(0)).toEqual({ soon: 100, late: 100, never: 50 });
    expect(left(130)).toEqual({ soon: 0, late: 70, never: 50 });
    expect(left(250)).toEqual({ soon: 0, late: 0, never: 0 });
  });
});
