import { addDays } from '../../src/platform/dates';
import { nextMidnight } from '../../src/modules/channels/channels.ari';
import { checkTheirSide } from '../../src/modules/channels/channels.mapping';
import { changedDays, rangesOf } from '../../src/modules/channels/channels.ranges';

const next = (date: string) => addDays(date, 1);
const same = (a: number, b: number) => a === b;
const dates = ['2027-01-01', '2027-01-02', '2027-01-03', '2027-01-04', '2027-01-05'];

describe('channel ranges', () => {
  it('makes consecutive equal days one range, and a changed value or a gap a new one', () => {
    const days = changedDays(dates, [2, 2, 3, 3, 3], undefined, same);
    expect(rangesOf(days, same, next)).toEqual([
      { date_from: '2027-01-01', date_to: '2027-01-02', value: 2 },
      { date_from: '2027-01-03', date_to: '2027-01-05', value: 3 },
    ]);
  });

  it('keeps only the days that differ from what was pushed; an unchanged day between two breaks the range', () => {
    const before = { '2027-01-01': 2, '2027-01-02': 2, '2027-01-03': 1, '2027-01-04': 2, '2027-01-05': 2 };
    const days = changedDays(dates, [1, 2, 1, 1, 2], before, same);
    expect(rangesOf(days, same, next)).toEqual([
      { date_from: '2027-01-01', date_to: '2027-01-01', value: 1 },
      { date_from: '2027-01-04', date_to: '2027-01-04', value: 1 },
    ]);
  });

  it('pushes nothing when nothing changed', () => {
    const before = Object.fromEntries(dates.map((date) => [date, 4]));
    expect(changedDays(dates, [4, 4, 4, 4, 4], before, same)).toEqual([]);
  });
});

describe('channel mapping against the channel’s lists', () => {
  const listing = {
    roomTypes: [
      { id: 'rt-1', title: 'Double' },
      { id: 'rt-2', title: 'Suite' },
    ],
    ratePlans: [
      { id: 'rp-1', title: 'BAR', room_type_id: 'rt-1' },
      { id: 'rp-2', title: 'Suite BAR', room_type_id: 'rt-2' },
    ],
  };

  it('names the ids the channel does not list', () => {
    const mapping = {
      room_types: [{ room_type_id: 'rt-9', category_id: 'c1' }],
      rate_plans: [{ rate_plan_id: 'rp-9', tariff_id: 't1' }],
    };
    expect(() => checkTheirSide(listing, mapping)).toThrow(
      expect.objectContaining({ code: 'channel_mapping_unknown', errors: ['room_type_id rt-9', 'rate_plan_id rp-9'] }),
    );
  });

  it('refuses a rate plan whose room type is not mapped, and keeps each plan with its room type', () => {
    const room_types = [{ room_type_id: 'rt-1', category_id: 'c1' }];
    expect(() =>
      checkTheirSide(listing, { room_types, rate_plans: [{ rate_plan_id: 'rp-2', tariff_id: 't1' }] }),
    ).toThrow(expect.objectContaining({ code: 'channel_mapping_unmapped_room_type', errors: ['rate_plan_id rp-2'] }));
    expect(checkTheirSide(listing, { room_types, rate_plans: [{ rate_plan_id: 'rp-1', tariff_id: 't1' }] })).toEqual({
      room_types,
      rate_plans: [{ rate_plan_id: 'rp-1', tariff_id: 't1', room_type_id: 'rt-1' }],
    });
  });
});

describe('nextMidnight (the sync wakes when the window moves)', () => {
  it('is a minute past the next midnight of the hotel’s zone', () => {
    const now = Date.parse('2026-03-10T20:30:00Z');
    expect(new Date(nextMidnight('Europe/Moscow', now)).toISOString()).toBe('2026-03-10T21:01:00.000Z');
    expect(new Date(nextMidnight('UTC', now)).toISOString()).toBe('2026-03-11T00:01:00.000Z');
    expect(new Date(nextMidnight('Asia/Vladivostok', now)).toISOString()).toBe('2026-03-11T14:01:00.000Z');
  });
});
