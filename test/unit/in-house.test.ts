import { inHouse } from '../../src/modules/bookings';

describe('a guest in house (Wi-Fi, room service)', () => {
  const start = new Date('2030-05-01T11:00:00Z');
  const end = new Date('2030-05-03T09:00:00Z');
  const stay = { start_at: start, end_at: end, checked_in_at: start };

  it('is checked in, from the start of the stay up to, not including, its end', () => {
    const checkedIn = { ...stay, status: 'checked_in' as const };
    expect(inHouse(checkedIn, new Date('2030-05-01T10:59:59Z'))).toBe(false);
    expect(inHouse(checkedIn, start)).toBe(true);
    expect(inHouse(checkedIn, new Date('2030-05-02T00:00:00Z'))).toBe(true);
    expect(inHouse(checkedIn, end)).toBe(false);
  });

  it('begins at an early check-in, before the planned hour, but not days before the stay', () => {
    const early = { ...stay, status: 'checked_in' as const, checked_in_at: new Date('2030-05-01T07:30:00Z') };
    expect(inHouse(early, new Date('2030-05-01T07:29:59Z'))).toBe(false);
    expect(inHouse(early, new Date('2030-05-01T08:00:00Z'))).toBe(true);
    const daysAhead = { ...stay, status: 'checked_in' as const, checked_in_at: new Date('2030-04-28T12:00:00Z') };
    expect(inHouse(daysAhead, new Date('2030-04-28T12:00:00Z'))).toBe(false);
    expect(inHouse(daysAhead, new Date('2030-04-30T11:00:00Z'))).toBe(true);
  });

  it('never for a stay not checked in, or checked out', () => {
    const during = new Date('2030-05-02T00:00:00Z');
    expect(inHouse({ ...stay, status: 'confirmed' }, during)).toBe(false);
    expect(inHouse({ ...stay, status: 'checked_out' }, during)).toBe(false);
    expect(inHouse({ ...stay, status: 'cancelled' }, during)).toBe(false);
  });
});
