import type { Knex } from 'knex';
import { ConflictError } from '../../src/platform/errors';
import type { HeldStay } from '../../src/modules/bookings/bookings.holds';
import type { NotificationsService } from '../../src/modules/notifications';
import { createPlannedMoves } from '../../src/modules/bookings/bookings.planned-moves';
import type { Segment, SegmentInput } from '../../src/modules/bookings/bookings.segments-repository';
import { notifyMoveSkipped, type OwnRoom, type SkippedMove } from '../../src/modules/bookings/bookings.staff-notices';
import type { Room } from '../../src/modules/rooms';
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

const other = { guest_last_name: 'Занятов', guest_first_name: 'Иван', check_in: 'd1', check_out: 'd2' } as Booking;

interface World {
  /** Per room, what differs from an open room of category `cat` for two. */
  rooms?: Record<string, Partial<Room> & { categoryId?: string }>;
  /** The guest's room held by another stay: the segments' write refused. */
  ownTaken?: boolean;
  /** Another stay that used the guest's room since (checked out): what `clashes` answers for used segments. */
  usedBy?: Booking;
  booking?: Partial<Booking>;
  holds?: Partial<MoveDependencies['holds']>;
}

const held = (stay: Partial<Booking>) =>
  `guard ${stay.category_id} ${stay.check_in}..${stay.check_out} ${stay.start_at?.getTime()}..${stay.end_at?.getTime()}`;

function carryOutWith(segments: Segment[], world: World = {}) {
  const done: string[] = [];
  // A savepoint: what its work did is undone when it throws.
  const trx = {
    async transaction(work: (savepoint: unknown) => unknown) {
      const before = done.length;
      try {
        return await work(trx);
      } catch (error) {
        done.length = before;
        throw error;
      }
    },
  };
  const booking = {
    id: 'b1',
    hotel_id: HOTEL,
    kind: 'nightly',
    status: 'checked_in',
    room_id: 'room-a',
    category_id: 'cat',
    block_id: null,
    check_in: segments[0].from,
    guests_count: 1,
    ...world.booking,
  } as Booking;
  const dependencies = {
    repository: {
      transaction: async (work: (trx: unknown) => unknown) => work(trx),
      bookings: {
        find: async () => booking,
        clashes: async (...args: unknown[]) => (args[5] ? (world.usedBy ? [world.usedBy] : []) : [other]),
        update: async (_trx: unknown, _hotelId: string, _id: string, fields: Partial<Booking>) => {
          if (fields.room_id) done.push(`room ${fields.room_id}`);
          return { ...booking, ...fields };
        },
      },
      segments: {
        of: async () => segments,
        replace: async (_trx: unknown, _hotelId: string, _id: string, written: SegmentInput[]) => {
          if (world.ownTaken) throw exclusion;
          done.push(`segments ${written.map((segment) => segment.room_id).join(' ')}`);
        },
      },
    },
    effects: {
      moved: async () => void done.push('moved'),
      moveSkipped: async (_trx: unknown, _booking: Booking, skipped: SkippedMove) =>
        void done.push(`skipped ${skipped.roomId}: ${skipped.why}${skipped.own ? `, ${outcomeOf(skipped.own)}` : ''}`),
    },
    holds: {
      enter: async () => false,
      guard: async (_trx: unknown, stay: Booking) => void done.push(held(stay)),
      ...world.holds,
    },
    turnover: async () => void done.push('turnover'),
    stays: { hotelOf: async () => ({ timezone: 'UTC', slug: 'hotel-one' }) },
    rooms: {
      findRoomWithCategory: async (_hotelId: string, id: string) => {
        const { categoryId = 'cat', ...room } = world.rooms?.[id] ?? {};
        const base = { id, number: id, status: 'clean', max_guests: 2, maintenance_from: null, maintenance_to: null };
        return { room: { ...base, ...room }, category: { id: categoryId } };
      },
    },
  } as unknown as MoveDependencies;
  return { carryOut: createPlannedMoves(dependencies), done };
}

function outcomeOf(own: OwnRoom): string {
  if (own.outcome === 'kept') return 'kept';
  if (own.outcome === 'taken') return `taken: ${own.by?.guest_last_name}`;
  return `${own.outcome}: ${own.reason}`;
}

const closedB = { rooms: { 'room-b': { status: 'closed' } } } as World;

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
    const { carryOut, done } = carryOutWith(segments, closedB);
    const next = await carryOut(HOTEL, 'b1', { from: segments[1].from, roomId: 'room-b', at: Date.now() });
    expect(done).toEqual(['segments room-a room-c', expect.stringMatching(/^skipped room-b: .+, kept$/)]);
    expect(next).toMatchObject({ from: segments[2].from, roomId: 'room-c' });
  });

  it("a stay back to the guest's room after the planned one: one segment again", async () => {
    const segments = [segment('room-a', -2, 0), segment('room-b', 0, 2), segment('room-a', 2, 4)];
    const { carryOut, done } = carryOutWith(segments, closedB);
    expect(await carryOut(HOTEL, 'b1', { from: segments[1].from, roomId: 'room-b', at: Date.now() })).toBeNull();
    expect(done).toEqual(['segments room-a', expect.stringMatching(/, kept$/)]);
  });

  it("a second attempt finds the plan undone (the nights back in the guest's room) and does nothing", async () => {
    const segments = [segment('room-a', -2, 2)];
    const { carryOut, done } = carryOutWith(segments, closedB);
    expect(await carryOut(HOTEL, 'b1', { from: dayOf(0), roomId: 'room-b', at: Date.now() })).toBeNull();
    expect(done).toEqual([]);
  });

  it("into a room closed since, the guest's room sold meanwhile: skipped, the desk told who holds it", async () => {
    const segments = [segment('room-a', -2, 0), segment('room-b', 0, 2)];
    const { carryOut, done } = carryOutWith(segments, { ...closedB, ownTaken: true });
    await carryOut(HOTEL, 'b1', { from: segments[1].from, roomId: 'room-b', at: Date.now() });
    expect(done).toEqual([expect.stringMatching(/^skipped room-b: .+, taken: Занятов$/)]);
  });

  it("into a room closed since, the guest's room under maintenance on the plan's nights too: not kept, the desk told why", async () => {
    const segments = [segment('room-a', -2, 0), segment('room-b', 0, 2)];
    const maintenance = { maintenance_from: segments[1].start_at, maintenance_to: segments[1].end_at };
    const { carryOut, done } = carryOutWith(segments, { rooms: { ...closedB.rooms, 'room-a': maintenance } });
    await carryOut(HOTEL, 'b1', { from: segments[1].from, roomId: 'room-b', at: Date.now() });
    expect(done).toEqual([expect.stringMatching(/, unusable: Номер закрыт на обслуживание в эти даты$/)]);
  });

  it("a plan begun before the hotel's today (the worker late): the guest's room not kept, the old notice", async () => {
    const segments = [segment('room-a', -3, -1), segment('room-b', -1, 2)];
    const { carryOut, done } = carryOutWith(segments, closedB);
    await carryOut(HOTEL, 'b1', { from: segments[1].from, roomId: 'room-b', at: Date.now() });
    expect(done).toEqual([expect.stringMatching(/^skipped room-b: [^,]+$/)]);
  });

  it("the guest's room used since by a stay checked out (the constraint ignores it): not kept, that stay named", async () => {
    // The day's gap between the guest's check-out hour and the plan's check-in hour begun: a day-use there since.
    const segments = [{ ...segment('room-a', -2, 0), end_at: new Date(Date.now() - 60_000) }, segment('room-b', 0, 2)];
    const usedBy = { ...other, guest_last_name: 'Дневной' } as Booking;
    const { carryOut, done } = carryOutWith(segments, { ...closedB, usedBy });
    await carryOut(HOTEL, 'b1', { from: segments[1].from, roomId: 'room-b', at: Date.now() });
    expect(done).toEqual([expect.stringMatching(/, taken: Дневной$/)]);
  });

  describe("the guest's room of another category than the planned one: the blocks' holds", () => {
    const world = (holds: World['holds'] = {}): World => ({
      rooms: { 'room-a': { categoryId: 'cat-a' }, 'room-b': { status: 'closed', categoryId: 'cat-b' } },
      booking: { category_id: 'cat-a', block_id: 'block-1' },
      holds: { enter: async () => true, ...holds },
    });

    it.each([
      ['another room after (A, B, C)', 'room-c', 'segments room-a room-c'],
      ['the guest back in their room after (A, B, A)', 'room-a', 'segments room-a'],
    ])('%s: guarded on the planned nights only', async (_name, after, written) => {
      const segments = [segment('room-a', -2, 0), segment('room-b', 0, 2), segment(after, 2, 4)];
      const { carryOut, done } = carryOutWith(segments, world());
      await carryOut(HOTEL, 'b1', { from: segments[1].from, roomId: 'room-b', at: Date.now() });
      const [, planned] = segments;
      const nights = { start_at: planned.start_at, end_at: planned.end_at, check_in: planned.from };
      expect(done).toEqual([
        written,
        held({ ...nights, check_out: planned.to, category_id: 'cat-a' }),
        expect.stringMatching(/, kept$/),
      ]);
    });

    it('the block no longer holding (cancelled): entered as any stay, kept', async () => {
      const entered: (string | undefined)[] = [];
      const enter = async (_trx: unknown, stay: HeldStay) => {
        entered.push(stay.blockId);
        if (stay.blockId) throw new ConflictError('Блок не держит номера', 'block_not_holding');
        return true;
      };
      const segments = [segment('room-a', -2, 0), segment('room-b', 0, 2)];
      const { carryOut, done } = carryOutWith(segments, world({ enter }));
      await carryOut(HOTEL, 'b1', { from: segments[1].from, roomId: 'room-b', at: Date.now() });
      expect(entered).toEqual(['block-1', undefined]);
      expect(done.at(-1)).toMatch(/, kept$/);
    });

    it("the holds refusing the guest's room: not kept, the refusal quoted (not a room taken)", async () => {
      const guard = async () => {
        throw new ConflictError('Свободные номера удержаны групповым блоком', 'held_by_block');
      };
      const segments = [segment('room-a', -2, 0), segment('room-b', 0, 2)];
      const { carryOut, done } = carryOutWith(segments, world({ guard }));
      await carryOut(HOTEL, 'b1', { from: segments[1].from, roomId: 'room-b', at: Date.now() });
      expect(done).toEqual([expect.stringMatching(/, refused: Свободные номера удержаны групповым блоком$/)]);
    });
  });
});

describe("the desk's notice of a skipped plan", () => {
  const booking = {
    id: 'b1',
    hotel_id: HOTEL,
    room_id: 'room-a',
    guest_last_name: 'Т',
    guest_first_name: 'Т',
    check_in: 'd0',
    check_out: 'd3',
  };
  const room = { number: '101' } as Room;

  it("told again when a later attempt keeps the guest's room the first could not", async () => {
    const made = new Map<string, { title: string; data: Record<string, unknown> }>();
    const notifications = {
      notify: async (_trx: unknown, _hotelId: string, notice: { dedupeKey: string; title: string; data: object }) => {
        const created = !made.has(notice.dedupeKey);
        if (created) made.set(notice.dedupeKey, { title: notice.title, data: notice.data as Record<string, unknown> });
        return { created };
      },
    } as unknown as Pick<NotificationsService, 'notify'>;
    const skipped = { roomId: 'room-b', from: dayOf(0), why: 'Номер закрыт' };
    const tell = (own: OwnRoom) =>
      notifyMoveSkipped(notifications, {} as Knex.Transaction, booking as Booking, { ...skipped, own });
    await tell({ room, outcome: 'taken', by: other });
    await tell({ room, outcome: 'taken', by: other });
    await tell({ room, outcome: 'kept', rooms: [] });
    expect([...made.values()].map((notice) => notice.data.room_kept)).toEqual([false, true]);
  });
});
