import { createPlannedMoves } from '../../src/modules/bookings/bookings.planned-moves';
import type { Segment, SegmentInput } from '../../src/modules/bookings/bookings.segments-repository';
import type { SkippedMove } from '../../src/modules/bookings/bookings.staff-notices';
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

/** The exclusion constraint's refusal, as PostgreSQL raises it. */
const exclusion = Object.assign(new Error('conflicting key value violates exclusion constraint'), { code: '23P01' });

function carryOutWith(segments: Segment[], room: { status: string } = { status: 'clean' }, ownTaken = false) {
  const done: string[] = [];
  const trx = { transaction: async (work: (savepoint: unknown) => unknown) => work(trx) };
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
      transaction: async (work: (trx: unknown) => unknown) => work(trx),
      bookings: {
        find: async () => booking,
        clashes: async () => [
          { guest_last_name: 'Занятов', guest_first_name: 'Иван', check_in: 'd1', check_out: 'd2' },
        ],
        update: async (_trx: unknown, _hotelId: string, _id: string, fields: Partial<Booking>) => {
          if (fields.room_id) done.push(`room ${fields.room_id}`);
          return { ...booking, ...fields };
        },
      },
      segments: {
        of: async () => segments,
        replace: async (_trx: unknown, _hotelId: string, _id: string, written: SegmentInput[]) => {
          if (ownTaken) throw exclusion;
          done.push(`segments ${written.map((segment) => segment.room_id).join(' ')}`);
        },
      },
    },
    effects: {
      moved: async () => void done.push('moved'),
      moveSkipped: async (_trx: unknown, _booking: Booking, skipped: SkippedMove) =>
        void done.push(
          `skipped ${skipped.roomId}: ${skipped.why}` +
            (skipped.own ? (skipped.own.kept ? ', kept' : `, taken: ${skipped.own.taken}`) : ''),
        ),
    },
    holds: { enter: async () => false, guard: async () => undefined },
    turnover: async () => void done.push('turnover'),
    stays: { hotelOf: async () => ({ timezone: 'UTC', slug: 'hotel-one' }) },
    rooms: {
      findRoomWithCategory: async (_hotelId: string, id: string) => ({
        room: { id, max_guests: 2, maintenance_from: null, maintenance_to: null, ...room },
        category: { id: 'cat' },
      }),
    },
  } as unknown as MoveDependencies;
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

  it("into a room closed since it was planned: skipped, the guest's room kept to the segment's end, the desk told", async () => {
    const segments = [segment('room-a', -2, 0), segment('room-b', 0, 2), segment('room-c', 2, 4)];
    const { carryOut, done } = carryOutWith(segments, { status: 'closed' });
    const next = await carryOut(HOTEL, 'b1', { from: segments[1].from, roomId: 'room-b', at: Date.now() });
    expect(done).toEqual(['segments room-a room-c', expect.stringMatching(/^skipped room-b: .+, kept$/)]);
    expect(next).toMatchObject({ from: segments[2].from, roomId: 'room-c' });
  });

  it("a stay back to the guest's room after the planned one: one segment again", async () => {
    const segments = [segment('room-a', -2, 0), segment('room-b', 0, 2), segment('room-a', 2, 4)];
    const { carryOut, done } = carryOutWith(segments, { status: 'closed' });
    expect(await carryOut(HOTEL, 'b1', { from: segments[1].from, roomId: 'room-b', at: Date.now() })).toBeNull();
    expect(done).toEqual(['segments room-a', expect.stringMatching(/, kept$/)]);
  });

  it("a second attempt finds the plan undone (the nights back in the guest's room) and does nothing", async () => {
    const segments = [segment('room-a', -2, 2)];
    const { carryOut, done } = carryOutWith(segments, { status: 'closed' });
    expect(await carryOut(HOTEL, 'b1', { from: dayOf(0), roomId: 'room-b', at: Date.now() })).toBeNull();
    expect(done).toEqual([]);
  });

  it("into a room closed since, the guest's room sold meanwhile: skipped, the desk told who holds it", async () => {
    const segments = [segment('room-a', -2, 0), segment('room-b', 0, 2)];
    const { carryOut, done } = carryOutWith(segments, { status: 'closed' }, true);
    await carryOut(HOTEL, 'b1', { from: segments[1].from, roomId: 'room-b', at: Date.now() });
    expect(done).toEqual([expect.stringMatching(/^skipped room-b: .+, taken: бронирование Занятов Иван, d1 — d2$/)]);
  });
});
