import { canMove, isOpenAt, localTime, stillProven } from '../../src/modules/roomservice/roomservice.rules';
import { createStatusTokens } from '../../src/modules/roomservice/roomservice.tokens';

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

describe('a proven stay read again in the order’s transaction', () => {
  const stay = {
    status: 'checked_in' as const,
    start_at: new Date('2030-05-01T11:00:00Z'),
    end_at: new Date('2030-05-03T09:00:00Z'),
    checked_in_at: new Date('2030-05-01T11:00:00Z'),
    room_id: 'room-1',
  };
  const during = new Date('2030-05-02T00:00:00Z');

  it('still orders while in house in the room proven', () => {
    expect(stillProven(stay, 'room-1', during)).toBe(true);
  });

  it('no longer orders once checked out, cancelled, over, or moved to another room', () => {
    expect(stillProven({ ...stay, status: 'checked_out' }, 'room-1', during)).toBe(false);
    expect(stillProven({ ...stay, status: 'cancelled' }, 'room-1', during)).toBe(false);
    expect(stillProven(stay, 'room-1', stay.end_at)).toBe(false);
    expect(stillProven({ ...stay, room_id: 'room-2' }, 'room-1', during)).toBe(false);
  });
});

describe('order status tokens', () => {
  const tokens = createStatusTokens('a-server-secret-that-is-long-enough-0123');

  it('are 64 hex, the same for an order every time, and another for another order, hotel or secret', () => {
    const token = tokens.of('hotel-1', 'order-1');
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    expect(tokens.of('hotel-1', 'order-1')).toBe(token);
    expect(createStatusTokens('a-server-secret-that-is-long-enough-0123').of('hotel-1', 'order-1')).toBe(token);
    const others = [
      tokens.of('hotel-1', 'order-2'),
      tokens.of('hotel-2', 'order-1'),
      createStatusTokens('another-secret-that-is-long-enough-01234').of('hotel-1', 'order-1'),
    ];
    for (const other of others) expect(other).not.toBe(token);
  });

  it("match their own order only, and nothing that is not a token's length", () => {
    const token = tokens.of('hotel-1', 'order-1');
    expect(tokens.matches('hotel-1', 'order-1', token)).toBe(true);
    expect(tokens.matches('hotel-1', 'order-2', token)).toBe(false);
    expect(tokens.matches('hotel-2', 'order-1', token)).toBe(false);
    expect(tokens.matches('hotel-1', 'order-1', 'a'.repeat(64))).toBe(false);
    expect(tokens.matches('hotel-1', 'order-1', token.slice(0, 62))).toBe(false);
  });
});
