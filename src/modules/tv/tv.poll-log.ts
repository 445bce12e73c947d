import type { PollLogEntry } from './tv.types';

export interface PollLogBounds {
  /** Entries kept per hotel (the oldest dropped first). */
  perHotel: number;
  /** Hotels kept (the one polled least recently dropped first). */
  hotels: number;
}

export const POLL_LOG_BOUNDS: PollLogBounds = { perHotel: 200, hotels: 1000 };

/**
 * The TV system's recent polls of `/tvpms`, per hotel, in this process's memory only: a diagnostic of "is the TV
 * polling us, and what did it get", not a record. Bounded both ways, so a burst of polls costs no memory beyond it.
 */
export function createPollLog(bounds: PollLogBounds = POLL_LOG_BOUNDS) {
  const byHotel = new Map<string, PollLogEntry[]>();

  return {
    add(hotelId: string, entry: PollLogEntry): void {
      const entries = byHotel.get(hotelId) ?? [];
      // Re-inserted so the Map's order is least recently polled first.
      byHotel.delete(hotelId);
      byHotel.set(hotelId, entries);
      entries.push(entry);
      if (entries.length > bounds.perHotel) entries.splice(0, entries.length - bounds.perHotel);
      if (byHotel.size > bounds.hotels) byHotel.delete(byHotel.keys().next().value as string);
    },

    /** Newest first. */
    of(hotelId: string): PollLogEntry[] {
      return [...(byHotel.get(hotelId) ?? [])].reverse();
    },
  };
}

export type PollLog = ReturnType<typeof createPollLog>;
