import type { BookingsRepository } from './bookings.repository';

/**
 * What one hotel's state may keep, per kind of value (a 200-room block is 6.4 kB, a staff answer for 93 nights about
 * 200 kB); past a bound the oldest value of that kind goes. The base values (the hotel, its rooms, its categories)
 * are never dropped: blocks are laid out in the order of that one room list.
 */
const LIMITS = { base: Infinity, block: 64, answer: 16, value: 256 } as const;
type ValueKind = keyof typeof LIMITS;

/**
 * What is known of one hotel at one inventory version: each value computed once, on first use, and shared by the
 * requests that need it (read-only: an answer object goes to many responses).
 */
export class HotelState {
  private readonly values: Record<ValueKind, Map<string, Promise<unknown>>> = {
    base: new Map(),
    block: new Map(),
    answer: new Map(),
    value: new Map(),
  };

  constructor(
    readonly version: number,
    readonly expiresAt: number,
  ) {}

  /** Concurrent requests share one computation; a failed one is forgotten, so the next request tries again. */
  derive<T>(kind: ValueKind, key: string, compute: () => Promise<T>): Promise<T> {
    const values = this.values[kind] as Map<string, Promise<T>>;
    const known = values.get(key);
    if (known) return known;
    if (values.size >= LIMITS[kind]) values.delete(values.keys().next().value!);
    const value = compute();
    values.set(key, value);
    value.catch(() => {
      if (values.get(key) === value) values.delete(key);
    });
    return value;
  }
}

/**
 * Reads hotels' inventory versions, many requests to one query: a request joins the next read while it has not been
 * sent (it is sent once the event loop has run what is ready now), so the version it gets is never older than the
 * request itself. Under load most requests share a read instead of each paying a round trip.
 */
export function batchedVersionReads({
  db,
  bookings,
}: Pick<BookingsRepository, 'db' | 'bookings'>): (hotelId: string) => Promise<number> {
  let next: { hotelIds: Set<string>; versions: Promise<Map<string, number>> } | undefined;
  return async (hotelId) => {
    if (!next) {
      const hotelIds = new Set<string>();
      const versions = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
        next = undefined;
        return bookings.inventoryVersions(db, [...hotelIds]);
      });
      next = { hotelIds, versions };
    }
    const batch = next;
    batch.hotelIds.add(hotelId);
    return (await batch.versions).get(hotelId)!;
  };
}
