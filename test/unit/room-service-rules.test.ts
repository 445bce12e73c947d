import { canMove, isOpenAt, localTime } from '../../src/modules/roomservice/roomservice.rules';

describe('room-service hours', () => {
  it('take orders from opening up to closing, around the clock when equal, and past midnight', () => {
    expect(isOpenAt('08:00', '22:00', '08:00')).toBe(true);
    expect(isOpenAt('08:00', '22:00', '21:59')).toBe(true);
    expect(isOpenAt('08:00', '22:00', '22:00')).toBe(false);
    expect(isOpenAt('08:00', '22:00', '07:59')).toBe(false);
    expect(isOpenAt('00:00', '00:00', '03:00')).toBe(true);
    expect(isOpenAt('22:00', '02:00', '23:30')).toBe(true);
    expect(isOpenAt('22:00', '02:00', '01:59')).toBe(true);
    expect(isOpenAt('22:00', '02:00', '02:00')).toBe(false);
    expect(isOpenAt('22:00', '02:00', '12:00')).toBe(false);
  });

  it("read the clock in the hotel's time zone", () => {
    const instant = new Date('2026-01-15T21:30:00Z');
    expect(localTime(instant, 'Europe/Moscow')).toBe('00:30');
    expect(localTime(instant, 'Asia/Vladivostok')).toBe('07:30');
    expect(localTime(instant, 'UTC')).toBe('21:30');
  });
});

describe('room-service order moves', () => {
  it('go one step at a time, or to cancelled from an open step; delivered and cancelled are final', () => {
    expect(canMove('new', 'accepted')).toBe(true);
    expect(canMove('accepted', 'preparing')).toBe(true);
    expect(canMove('preparing', 'delivered')).toBe(true);
    expect(canMove('new', 'preparing')).toBe(false);
    expect(canMove('new', 'delivered')).toBe(false);
    expect(canMove('accepted', 'new')).toBe(false);
    for (const open of ['new', 'accepted', 'preparing'] as const) expect(canMove(open, 'cancelled')).toBe(true);
    for (const final of ['delivered', 'cancelled'] as const) {
      for (const to of ['new', 'accepted', 'preparing', 'delivered', 'cancelled'] as const)
        expect(canMove(final, to)).toBe(false);
    }
  });
});
