import { arrivalStatus, invites, remainingDelayMs, stayDays } from '../../src/modules/reviews/reviews.rules';

const stay = { status: 'checked_out', source: 'front_desk', guest_email: 'guest@example.test', checked_out_at: null };
const on = { invitations_enabled: true };

describe('who is invited', () => {
  it('the guest of a checked-out stay with an address, in a hotel that invites', () => {
    expect(invites(stay, on, false)).toBe(true);
    expect(invites({ ...stay, source: 'online' }, on, false)).toBe(true);
  });

  it('nobody with reviews off, opted out, without an address, from an OTA, or not checked out', () => {
    expect(invites(stay, { invitations_enabled: false }, false)).toBe(false);
    expect(invites(stay, on, true)).toBe(false);
    expect(invites({ ...stay, guest_email: null }, on, false)).toBe(false);
    expect(invites({ ...stay, guest_email: '  ' }, on, false)).toBe(false);
    expect(invites({ ...stay, source: 'ota' }, on, false)).toBe(false);
    for (const status of ['inquiry', 'confirmed', 'checked_in', 'cancelled'])
      expect(invites({ ...stay, status }, on, false)).toBe(false);
  });
});

describe('the delay', () => {
  const now = new Date('2026-11-24T12:00:00Z');
  const hours = (n: number) => n * 3_600_000;

  it("counts the hotel's hours from the check-out, and is never negative", () => {
    expect(remainingDelayMs(new Date('2026-11-24T12:00:00Z'), 24, now, undefined)).toBe(hours(24));
    expect(remainingDelayMs(new Date('2026-11-24T02:00:00Z'), 24, now, undefined)).toBe(hours(14));
    expect(remainingDelayMs(new Date('2026-11-20T12:00:00Z'), 24, now, undefined)).toBe(0);
    expect(remainingDelayMs(null, 2, now, undefined)).toBe(hours(2));
    expect(remainingDelayMs(now, 0, now, undefined)).toBe(0);
  });

  it('the configured override replaces the hours', () => {
    expect(remainingDelayMs(now, 24, now, 2000)).toBe(2000);
  });
});

describe('a new review', () => {
  it('is published at once only where the hotel publishes without moderation', () => {
    expect(arrivalStatus({ auto_publish: true })).toBe('published');
    expect(arrivalStatus({ auto_publish: false })).toBe('pending');
  });
});

describe('the days of a stay', () => {
  it("are a night stay's dates, or an hourly stay's days in the hotel's zone", () => {
    const times = { start_at: new Date('2026-11-23T22:30:00Z'), end_at: new Date('2026-11-24T01:30:00Z') };
    expect(stayDays({ check_in: '2026-11-20', check_out: '2026-11-22', ...times }, 'Europe/Moscow')).toEqual({
      stay_from: '2026-11-20',
      stay_to: '2026-11-22',
    });
    expect(stayDays({ check_in: null, check_out: null, ...times }, 'Europe/Moscow')).toEqual({
      stay_from: '2026-11-24',
      stay_to: '2026-11-24',
    });
    expect(stayDays({ check_in: null, check_out: null, ...times }, 'UTC')).toEqual({
      stay_from: '2026-11-23',
      stay_to: '2026-11-24',
    });
  });
});
