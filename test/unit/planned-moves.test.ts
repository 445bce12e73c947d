import { createPlannedMoves } from '../../src/modules/bookings/bookings.planned-moves';
import type { Segment } from '../../src/modules/bookings/bookings.segments-repository';
import type { Booking } from '../../src/modules/bookings/bookings.types';
import type { MoveDependencies } from '../../src/modules/bookings/bookings.move-dependencies';

/**
 * A planned move at its time, without a database: carried out only into a segment still to come whose room can take
 * the guest; otherwise skipped, the desk told why, and the next plan answered.
 */

const HOTEL = 'h1';
const DAY_MS = 86_400_000;
const dayOf = (offset: number) => new Date(Date.now() + offset * DAY_MS).toISOString().slice(0, 10);

const segment = (roomId: string, fromDay: number, toDay: number): Segment => ({
  booking_id: 'b1',
  room_id: roomId,
  start_at: new Date(Date.now() + fromDay * DAY_MS),
  end_at: new Date(Date.now() + toDay * DAY_MS),
  from: dayOf(fromDay),
  to: dayOf(toDay),
});

function carryOutWith(segments: Segment[], room: { status: string } = { status: 'clean' }) {
  const done: string[] = [];
  const booking = {
    id: 'b1',
    hotel_id: HOTEL,
    kind: 'nightly',
    status: 'checked_in',
    room_id: 'room-a',
    check_in: segments[0].from,
    guests_count: 1,
  } as Booking;
  const dependencies = {
    repository: {
      transaction: async (work: (trx: unknown) => unknown) => work({}),
      bookings: {
        find: async () => booking,
        update: async (_trx: unknown, _hotelId: string, _id: string, fields: Partial<Booking>) => {
          done.push(`room ${fields.room_id}`);
          return { ...booking, ...fields };
        },
      },
      segments: { of: async () => segments },
    },
    effects: {
      moved: async () => void done.push('moved'),
      moveSkipped: async (_trx: unknown, _booking: Booking, skipped: { roomId: string; why: string }) =>
        void done.push(`skipped ${skipped.roomId}: ${skipped.why}`),
    },
    turnover: async () => void done.push('turnover'),
    stays: { hotelOf: async () => ({ timezone: 'UTC', slug: 'hotel-one' }) },
    rooms: {
      findRoomWithCategory: async (_hotelId: string, id: string) => ({
        room: { id, max_guests: 2, maintenance_from: null, maintenance_to: null, ...room },
        category: { id: 'cat' },
      }),
    },
  } as unknown as Omit<MoveDependencies, 'holds'>;
  return { carryOut: createPlannedMoves(dependencies), done };
}

describe('a planned move carried out at its time', () => {
  it('into a segment still running whose room is open: moved', async () => {
    const segments = [segment('room-a', -2, 0), segment('room-b', 0, 2)];
    const { carryOut, done } = carryOutWith(segments);
    await carryOut(HOTEL, 'b1', { from: segments[1].from, roomId: 'room-b', at: Date.now() });
    expect(done).toEqual(['room room-b', 'turnover', 'moved']);
  });

  it('a stale plan whose segment is over (a worker down meanwhile): skipped, the desk told, the next one answered', async () => {
    const segments = [segment('room-a', -4, -3), segment('room-b', -3, -1), segment('room-c', -1, 2)];
    const { carryOut, done } = carryOutWith(segments);
    const next = await carryOut(HOTEL, 'b1', { from: segments[1].from, roomId: 'room-b', at: Date.now() });
    expect(done).toEqual(['skipped room-b: Ночи в новом номере уже прошли']);
    expect(next).toMatchObject({ from: segments[2].from, roomId: 'room-c' });
  });

  it('into a room closed since it was planned: skipped, the desk told', async () => {
    const segments = [segment('room-a', -2, 0), segment('room-b', 0, 2)];
    const { carryOut, done } = carryOutWith(segments, { status: 'closed' });
    await carryOut(HOTEL, 'b1', { from: segments[1].from, roomId: 'room-b', at: Date.now() });
    expect(done).toEqual([expect.stringMatching(/^skipped room-b: /)]);
  });
});
