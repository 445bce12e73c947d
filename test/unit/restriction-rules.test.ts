import type { Db } from '../../src/platform/db/knex';
import { ForbiddenError } from '../../src/platform/errors';
import { createRestrictionsService } from '../../src/modules/restrictions/restrictions.service';
import { offeringFrom } from '../../src/modules/restrictions/restrictions.offering';
import { breachesOf, brokenBy, inForce, newlyBroken } from '../../src/modules/restrictions/restrictions.rules';
import type { RestrictionNight } from '../../src/modules/restrictions/restrictions.types';

const CATEGORY = 'c1';
const none = {
  min_stay_arrival: null,
  min_stay_through: null,
  max_stay: null,
  closed_to_arrival: false,
  closed_to_departure: false,
  stop_sell: false,
  min_advance_days: null,
  max_advance_days: null,
};
const row = (night: string, fields: Partial<RestrictionNight>, tariff: string | null = null): RestrictionNight => ({
  category_id: CATEGORY,
  tariff_id: tariff,
  night,
  ...none,
  ...fields,
});
const stay = (check_in: string, check_out: string, tariff: string | null = null) => ({
  category_id: CATEGORY,
  tariff_id: tariff,
  check_in,
  check_out,
});

describe('restriction rules', () => {
  it('reads each restriction on its night: arrival, every night held, or the departure day', () => {
    const rows = [
      row('2031-01-01', { min_stay_arrival: 3, closed_to_departure: true }),
      row('2031-01-02', { stop_sell: true, closed_to_arrival: true }),
      row('2031-01-03', { closed_to_departure: true }),
    ];
    // Arriving on the 1st for 2 nights: too short on arrival, the 2nd on stop-sell (its arrival closure is not read),
    // leaving on the 3rd closed; the departure closure of the arrival day is not read.
    expect(brokenBy(stay('2031-01-01', '2031-01-03'), rows, '2030-12-01')).toEqual([
      { restriction: 'min_stay_arrival', night: '2031-01-01', value: 3 },
      { restriction: 'stop_sell', night: '2031-01-02', value: true },
      { restriction: 'closed_to_departure', night: '2031-01-03', value: true },
    ]);
    expect(brokenBy(stay('2030-12-30', '2031-01-01'), rows, '2030-12-01')).toEqual([
      { restriction: 'closed_to_departure', night: '2031-01-01', value: true },
    ]);
  });

  it("counts the booking window from the hotel's today, and holds a tariff's rows to its stays only", () => {
    const rows = [
      row('2031-01-10', { min_advance_days: 5, max_advance_days: 7 }),
      row('2031-01-11', { max_stay: 1 }, 't1'),
    ];
    expect(brokenBy(stay('2031-01-10', '2031-01-11'), rows, '2031-01-05')).toEqual([]);
    expect(brokenBy(stay('2031-01-10', '2031-01-11'), rows, '2031-01-06')).toEqual([
      { restriction: 'min_advance_days', night: '2031-01-10', value: 5 },
    ]);
    expect(brokenBy(stay('2031-01-10', '2031-01-11'), rows, '2031-01-02')[0].restriction).toBe('max_advance_days');
    expect(brokenBy(stay('2031-01-11', '2031-01-13'), rows, '2031-01-01')).toEqual([]);
    expect(brokenBy(stay('2031-01-11', '2031-01-13', 't1'), rows, '2031-01-01')).toEqual([
      { restriction: 'max_stay', night: '2031-01-11', value: 1 },
    ]);
    expect(brokenBy({ ...stay('2031-01-10', '2031-01-11'), category_id: 'c2' }, rows, '2031-01-09')).toEqual([]);
  });

  it('a category-wide and a tariff row breaking the same field on a night: the stricter, once', () => {
    const rows = [
      row('2031-01-01', { max_stay: 3, stop_sell: true }, 't1'),
      row('2031-01-01', { max_stay: 2, stop_sell: true }),
      row('2031-01-01', { min_stay_arrival: 9 }, 't1'),
      row('2031-01-01', { min_stay_arrival: 6 }),
    ];
    expect(brokenBy(stay('2031-01-01', '2031-01-05', 't1'), rows, '2030-12-01')).toEqual([
      { restriction: 'min_stay_arrival', night: '2031-01-01', value: 9 },
      { restriction: 'max_stay', night: '2031-01-01', value: 2 },
      { restriction: 'stop_sell', night: '2031-01-01', value: true },
    ]);
  });

  it('a change breaks anew only what the stay before it did not break on the same night', () => {
    const rows = [row('2031-01-02', { stop_sell: true }), row('2031-01-05', { stop_sell: true })];
    const before = breachesOf(stay('2031-01-01', '2031-01-04'), rows, '2031-01-01');
    const after = breachesOf(stay('2031-01-01', '2031-01-06'), rows, '2031-01-01');
    expect(newlyBroken(after, before)).toEqual([after[1]]);
    expect(newlyBroken(before, after)).toEqual([]);
  });

  it('another category closed on the same night, or a stricter value of another tariff, is broken anew', () => {
    const rows = [
      row('2031-01-02', { stop_sell: true }),
      { ...row('2031-01-02', { stop_sell: true }), category_id: 'c2' },
      row('2031-01-01', { min_stay_arrival: 3 }),
      row('2031-01-01', { min_stay_arrival: 4 }, 't1'),
      row('2031-01-01', { min_stay_arrival: 3 }, 't2'),
    ];
    const before = breachesOf(stay('2031-01-01', '2031-01-03'), rows, '2030-12-01');
    const moved = breachesOf({ ...stay('2031-01-01', '2031-01-03'), category_id: 'c2' }, rows, '2030-12-01');
    expect(newlyBroken(moved, before)).toEqual([
      expect.objectContaining({ restriction: 'stop_sell', category_id: 'c2' }),
    ]);
    const onT1 = breachesOf(stay('2031-01-01', '2031-01-03', 't1'), rows, '2030-12-01');
    expect(newlyBroken(onT1, before)).toEqual([expect.objectContaining({ value: 4, tariff_id: 't1' })]);
    // A stricter value where the same row was broken before is new too; an equal or weaker one is not.
    const stricter = before.map((item) => (item.restriction === 'min_stay_arrival' ? { ...item, value: 5 } : item));
    expect(newlyBroken(stricter, before)).toEqual([expect.objectContaining({ value: 5 })]);
    expect(newlyBroken(before, stricter)).toEqual([]);
  });

  it('a stay offered: sellable, or why not and the shifts by up to 3 days that are, closest and earlier first', () => {
    const rows = [row('2031-01-10', { closed_to_arrival: true }), row('2031-01-12', { closed_to_arrival: true })];
    const offering = offeringFrom(rows, '2031-01-08');
    expect(offering.verdict(stay('2031-01-11', '2031-01-13'))).toEqual({
      sellable: true,
      restrictions: [],
      alternatives: [],
    });
    // Arrivals on the 10th and 12th closed; the 8th is today, the 7th past; the 14th has no room.
    const verdict = offering.verdict(stay('2031-01-10', '2031-01-12'), (dates) => dates.check_in !== '2031-01-13');
    expect(verdict).toEqual({
      sellable: false,
      restrictions: [{ restriction: 'closed_to_arrival', night: '2031-01-10', value: true }],
      alternatives: [
        { check_in: '2031-01-09', check_out: '2031-01-11' },
        { check_in: '2031-01-11', check_out: '2031-01-13' },
        { check_in: '2031-01-08', check_out: '2031-01-10' },
      ],
    });
    // No room for the stay itself: not sellable, with nothing broken.
    expect(offering.verdict(stay('2031-01-11', '2031-01-12'), () => false)).toEqual({
      sellable: false,
      restrictions: [],
      alternatives: [],
    });
  });
});

describe('the restrictions check', () => {
  it('refuses an override asked for by an actor who may not, whoever calls it, before reading anything', async () => {
    const service = createRestrictionsService({} as Db);
    const check = {
      hotel: { id: 'h1', timezone: 'Europe/Moscow' },
      stay: stay('2031-01-01', '2031-01-02'),
      override: { by: 'u1', permitted: false },
    };
    await expect(service.check({} as Db, check)).rejects.toBeInstanceOf(ForbiddenError);
  });
});

describe('inForce (what the channel sync pushes)', () => {
  it('takes, per field, the stricter of the category-wide row and the tariff’s, ignoring another tariff’s', () => {
    const rows = [
      row('2026-05-01', { min_stay_arrival: 2, max_stay: 7, max_advance_days: 90 }),
      row('2026-05-01', { min_stay_arrival: 3, max_stay: 10, closed_to_arrival: true, max_advance_days: 30 }, 't1'),
      row('2026-05-01', { stop_sell: true, min_stay_through: 9 }, 't2'),
    ];
    expect(inForce(rows, { category_id: CATEGORY, tariff_id: 't1' })).toEqual({
      ...none,
      min_stay_arrival: 3,
      max_stay: 7,
      closed_to_arrival: true,
      max_advance_days: 30,
    });
    expect(inForce([], { category_id: CATEGORY, tariff_id: 't1' })).toEqual(none);
  });
});
