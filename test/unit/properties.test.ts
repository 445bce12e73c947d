import fc from 'fast-check';
import {
  allowedMoves,
  canMoveBooking,
  orderCandidates,
  type RoomCandidate,
} from '../../src/modules/bookings/bookings.rules';
import { BOOKING_STATUSES, type BookingStatus } from '../../src/modules/bookings/bookings.types';
import { firstFreeSlug, slugify } from '../../src/modules/hotels/hotels.slug';
import { canMove, pickAssignee, roomStatusAfter } from '../../src/modules/housekeeping/housekeeping.rules';
import {
  ASSIGN_STRATEGIES,
  TASK_CATEGORIES,
  TASK_STATUSES,
  type TaskStatus,
} from '../../src/modules/housekeeping/housekeeping.types';
import { ROOM_STATUSES, type RoomStatus } from '../../src/modules/rooms';

/**
 * Properties of the pure rules (money arithmetic has its own in test/unit/money.test.ts, pricing in test/unit/pricing-engine.test.ts). Each property runs
 * fast-check's default 100 cases unless it says otherwise; a failure prints the shrunk counterexample.
 */

const CYRILLIC = 'абвгдеёжзийклмнопрстуфхцчшщъыьэюя';
const cyrillicLetter = fc.constantFrom(...CYRILLIC, ...CYRILLIC.toUpperCase());
/** Names people type: Latin, Cyrillic, digits, punctuation, every kind of white space, and any other code point. */
const hotelName = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 120 }),
  fc.string({
    unit: fc.oneof(
      cyrillicLetter,
      fc.constantFrom(...'abcXYZ019 -_.,!"№*\t\n\u00a0\u2003'),
      fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
    ),
    maxLength: 120,
  }),
);

describe('slugify', () => {
  it('always gives 1-50 of [a-z0-9-] (the fallback "hotel" included)', () => {
    fc.assert(
      fc.property(hotelName, (name) => {
        const slug = slugify(name);
        expect(slug === 'hotel' || /^[a-z0-9-]{1,50}$/.test(slug)).toBe(true);
        expect(slug).toMatch(/^[a-z0-9-]{1,50}$/);
        expect(slug).not.toMatch(/--/);
      }),
      { numRuns: 1000 },
    );
  });

  it('is idempotent on its own output', () => {
    fc.assert(
      fc.property(hotelName, (name) => {
        const slug = slugify(name);
        expect(slugify(slug)).toBe(slug);
      }),
      { numRuns: 1000 },
    );
  });

  it('turns Cyrillic-only names into non-empty Latin', () => {
    const words = fc.array(fc.string({ unit: cyrillicLetter, minLength: 1, maxLength: 15 }), {
      minLength: 1,
      maxLength: 6,
    });
    fc.assert(
      fc.property(words, fc.constantFrom(' ', '  ', ' \t '), (list, gap) => {
        const name = list.join(gap);
        const slug = slugify(name);
        expect(slug).toMatch(/^[a-z][a-z-]{0,49}$/);
        // Every letter but ъ and ь gives at least one Latin letter; words are joined by single hyphens.
        const letters = [...name.toLowerCase()].filter((c) => CYRILLIC.includes(c) && c !== 'ъ' && c !== 'ь');
        if (letters.length > 0)
          expect(slug.replace(/-/g, '').length).toBeGreaterThanOrEqual(Math.min(letters.length, 25));
      }),
      { numRuns: 500 },
    );
  });
});

describe('firstFreeSlug', () => {
  const slug = fc.stringMatching(/^[a-z0-9-]{1,12}$/);

  it('never returns a taken slug, and returns the base itself when it is free', () => {
    fc.assert(
      fc.property(slug, fc.array(fc.oneof(slug, fc.integer({ min: 2, max: 30 })), { maxLength: 40 }), (base, raw) => {
        // Numbers stand for base-N, so the taken set really collides with the candidates.
        const taken = raw.map((entry) => (typeof entry === 'number' ? `${base}-${entry}` : entry));
        const result = firstFreeSlug(base, taken);
        expect(taken).not.toContain(result);
        if (!taken.includes(base)) expect(result).toBe(base);
        else expect(result).toMatch(new RegExp(`^${base.replace(/-/g, '\\-')}-([2-9]|[1-9]\\d+)$`));
      }),
      { numRuns: 500 },
    );
  });

  it('picks the smallest free suffix', () => {
    fc.assert(
      fc.property(slug, fc.uniqueArray(fc.integer({ min: 2, max: 20 })), (base, suffixes) => {
        const taken = [base, ...suffixes.map((n) => `${base}-${n}`)];
        let expected = 2;
        while (suffixes.includes(expected)) expected++;
        expect(firstFreeSlug(base, taken)).toBe(`${base}-${expected}`);
      }),
    );
  });
});

describe('booking status moves', () => {
  const status = fc.constantFrom(...BOOKING_STATUSES);
  const FINAL: readonly BookingStatus[] = ['checked_out', 'cancelled'];

  it('canMoveBooking and allowedMoves agree (staying put is always allowed)', () => {
    fc.assert(
      fc.property(status, status, (from, to) => {
        expect(canMoveBooking(from, to)).toBe(from === to || allowedMoves(from).includes(to));
      }),
    );
  });

  it('final states have no moves', () => {
    for (const final of FINAL) {
      expect(allowedMoves(final)).toEqual([]);
      for (const to of BOOKING_STATUSES) expect(canMoveBooking(final, to)).toBe(to === final);
    }
  });

  it('no move leads back to inquiry', () => {
    for (const from of BOOKING_STATUSES) {
      if (from !== 'inquiry') expect(canMoveBooking(from, 'inquiry')).toBe(false);
    }
  });

  it('every path from inquiry ends in checked_out or cancelled within a few moves', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(), { minLength: BOOKING_STATUSES.length + 1 }), (choices) => {
        let current: BookingStatus = 'inquiry';
        const visited = new Set<BookingStatus>([current]);
        for (const choice of choices) {
          const moves = allowedMoves(current);
          if (moves.length === 0) break;
          current = moves[choice % moves.length];
          // No cycles: a status is never visited twice, so every walk ends.
          expect(visited.has(current)).toBe(false);
          visited.add(current);
        }
        expect(allowedMoves(current)).toEqual([]);
        expect(FINAL).toContain(current);
      }),
      { numRuns: 300 },
    );
  });
});

describe('housekeeping task moves and the room board', () => {
  const taskStatus = fc.constantFrom(...TASK_STATUSES);
  const roomStatus = fc.constantFrom(...ROOM_STATUSES);
  const category = fc.constantFrom(...TASK_CATEGORIES);

  it('cleaning only ever results from a task of any kind moving to in_progress; done never yields cleaning', () => {
    fc.assert(
      fc.property(category, taskStatus, taskStatus, roomStatus, fc.boolean(), (cat, from, to, room, inspect) => {
        const after = roomStatusAfter({ category: cat }, from, to, { status: room }, inspect);
        if (to === 'in_progress' && from !== to) expect(after).toBe('cleaning');
        if (after === 'cleaning') {
          expect(to).toBe('in_progress');
          expect(from).not.toBe('in_progress');
        }
        if (to === 'done') expect(after).not.toBe('cleaning');
        if (from === to) expect(after).toBeUndefined();
      }),
      { numRuns: 500 },
    );
  });

  it('done and cancelled are final', () => {
    for (const final of ['done', 'cancelled'] as const) {
      for (const to of TASK_STATUSES) expect(canMove(final, to)).toBe(to === final);
    }
  });

  it('along any sequence of allowed moves the room shows cleaning exactly while a task is in progress', () => {
    fc.assert(
      fc.property(
        category,
        roomStatus.filter((s) => s !== 'cleaning'),
        fc.boolean(),
        fc.array(taskStatus, { maxLength: 20 }),
        (cat, initialRoom, inspect, attempts) => {
          let task: TaskStatus = 'pending';
          let room: RoomStatus = initialRoom;
          for (const to of attempts) {
            if (!canMove(task, to) || to === task) continue;
            room = roomStatusAfter({ category: cat }, task, to, { status: room }, inspect) ?? room;
            task = to;
            expect(room === 'cleaning').toBe(task === 'in_progress');
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('pickAssignee', () => {
  const candidates = fc.uniqueArray(fc.record({ id: fc.uuid(), openTasks: fc.nat({ max: 5 }) }), {
    selector: (c) => c.id,
    maxLength: 8,
  });
  const strategy = fc.constantFrom(...ASSIGN_STRATEGIES);

  it('returns one of the candidates, and undefined only for an empty list', () => {
    fc.assert(
      fc.property(strategy, candidates, fc.option(fc.uuid()), fc.nat(), (s, list, foreign, index) => {
        // The previous pick: nobody, someone no longer listed, or one of the candidates.
        const previous = list.length > 0 && index % 2 === 0 ? list[index % list.length].id : foreign;
        const pick = pickAssignee(s, list, previous);
        if (list.length === 0) expect(pick).toBeUndefined();
        else expect(list.map((c) => c.id)).toContain(pick);
      }),
      { numRuns: 500 },
    );
  });

  it('least_loaded picks a least loaded candidate; first_free a free one when there is one', () => {
    fc.assert(
      fc.property(candidates, (list) => {
        fc.pre(list.length > 0);
        const load = (id: string | undefined) => list.find((c) => c.id === id)!.openTasks;
        const minimum = Math.min(...list.map((c) => c.openTasks));
        expect(load(pickAssignee('least_loaded', list, null))).toBe(minimum);
        expect(load(pickAssignee('first_free', list, null))).toBe(minimum);
      }),
    );
  });

  it('round_robin visits each of n candidates exactly once in any n consecutive picks', () => {
    fc.assert(
      fc.property(candidates, fc.option(fc.uuid()), fc.nat(), fc.nat({ max: 10 }), (list, foreign, index, warmUp) => {
        fc.pre(list.length > 0);
        let previous: string | null = index % 2 === 0 ? list[index % list.length].id : foreign;
        for (let i = 0; i < warmUp; i++) previous = pickAssignee('round_robin', list, previous)!;
        const picks: string[] = [];
        for (let i = 0; i < list.length; i++) {
          previous = pickAssignee('round_robin', list, previous)!;
          picks.push(previous);
        }
        expect([...picks].sort()).toEqual(list.map((c) => c.id).sort());
      }),
      { numRuns: 500 },
    );
  });
});

describe('orderCandidates', () => {
  const room: fc.Arbitrary<RoomCandidate> = fc.record({
    id: fc.uuid(),
    category_id: fc.constant('00000000-0000-4000-8000-000000000000'),
    number: fc.oneof(fc.integer({ min: 1, max: 999 }).map(String), fc.stringMatching(/^[0-9]{1,3}[АБa-c]?$/)),
    floor: fc.option(fc.integer({ min: -1, max: 20 }).map(String)),
    nearbyLoad: fc.nat({ max: 30 }),
    touches: fc.boolean(),
  });
  const strategy = fc.constantFrom('spread' as const, 'together' as const, 'sequential' as const);

  it('is a permutation of its input and leaves the input as it was', () => {
    fc.assert(
      fc.property(strategy, fc.array(room, { maxLength: 30 }), (s, rooms) => {
        const before = [...rooms];
        const ordered = orderCandidates(s, rooms);
        expect(rooms).toEqual(before);
        expect(ordered).toHaveLength(rooms.length);
        // The same objects, each as many times as given.
        const count = (list: RoomCandidate[]) => {
          const counts = new Map<RoomCandidate, number>();
          for (const r of list) counts.set(r, (counts.get(r) ?? 0) + 1);
          return counts;
        };
        expect(count(ordered)).toEqual(count(rooms));
      }),
      { numRuns: 500 },
    );
  });

  it('orders by its strategy: spread least loaded first; together touching rooms first', () => {
    fc.assert(
      fc.property(fc.array(room, { maxLength: 30 }), (rooms) => {
        const spread = orderCandidates('spread', rooms);
        for (let i = 1; i < spread.length; i++)
          expect(spread[i - 1].nearbyLoad).toBeLessThanOrEqual(spread[i].nearbyLoad);
        const together = orderCandidates('together', rooms);
        const firstApart = together.findIndex((r) => !r.touches);
        if (firstApart >= 0) expect(together.slice(firstApart).every((r) => !r.touches)).toBe(true);
      }),
    );
  });
});
