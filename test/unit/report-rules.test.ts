import {
  bookedByNight,
  pricedNights,
  percent,
  performance,
  periodOf,
  perUnit,
} from '../../src/modules/reports/reports.rules';

describe('report rules', () => {
  it('put a day in its ISO week (from Monday) or month', () => {
    expect(periodOf('2026-11-29', 'week')).toBe('2026-11-23'); // a Sunday
    expect(periodOf('2026-11-23', 'week')).toBe('2026-11-23');
    expect(periodOf('2026-11-29', 'month')).toBe('2026-11-01');
    expect(periodOf('2026-11-29', 'day')).toBe('2026-11-29');
  });

  it('divide money to the kopeck, half away from zero, and nothing by nothing', () => {
    expect(perUnit(1000n, 3)).toBe('3.33');
    expect(perUnit(1001n, 2)).toBe('5.01'); // 5.005
    expect(perUnit(-1001n, 2)).toBe('-5.01');
    expect(perUnit(500n, 0)).toBe('0.00');
    expect(percent(1, 3)).toBe('33.33');
    expect(percent(2, 3)).toBe('66.67');
    expect(percent(1, 0)).toBe('0.00');
  });

  it('sum the days of a period before dividing, rooms out of order taken from those available', () => {
    const days = [
      { date: '2026-11-02', rooms: 10, out_of_order: 0 },
      { date: '2026-11-03', rooms: 10, out_of_order: 2 },
    ];
    const nights = new Map([
      [
        '2026-11-02',
        { date: '2026-11-02', rooms_sold: 5, room_revenue: '5000.00', day_use_stays: 1, day_use_revenue: '700.00' },
      ],
      [
        '2026-11-03',
        { date: '2026-11-03', rooms_sold: 8, room_revenue: '10000.00', day_use_stays: 0, day_use_revenue: '0.00' },
      ],
    ]);
    expect(performance(days, nights, 'week')).toEqual([
      {
        period: '2026-11-02',
        from: '2026-11-02',
        to: '2026-11-03',
        rooms_available: 18,
        rooms_out_of_order: 2,
        rooms_sold: 13,
        occupancy: '72.22',
        room_revenue: '15000.00',
        room_discounts: '0.00',
        adr: '1153.85',
        revpar: '833.33',
        day_use_stays: 1,
        day_use_revenue: '700.00',
      },
    ]);
  });

  it('share a booked stay among its nights as the folio does, the kopecks left on the last', () => {
    const stay = {
      id: 'a',
      check_in: '2026-11-30',
      check_out: '2026-12-03',
      price: '100.00',
      created_at: new Date(),
      left_on: null,
      cancelled_at: null,
    };
    const byNight = bookedByNight([stay], '2026-12-01', '2026-12-04');
    expect([...byNight].map(([date, { rooms, revenue }]) => [date, rooms, revenue])).toEqual([
      ['2026-12-01', 1, 3333n],
      ['2026-12-02', 1, 3334n],
      ['2026-12-03', 0, 0n],
      ['2026-12-04', 0, 0n],
    ]);
  });

  it('a stay left early keeps the nights stayed, the rest of its price on the last of them', () => {
    const stay = {
      id: 'b',
      check_in: '2026-11-30',
      check_out: '2026-12-03',
      price: '100.00',
      created_at: new Date(),
      left_on: '2026-12-02',
      cancelled_at: null,
    };
    expect(pricedNights(stay)).toEqual([
      ['2026-11-30', 3333n],
      ['2026-12-01', 6667n],
    ]);
  });
});
