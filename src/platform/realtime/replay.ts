import type { Db } from '../db/knex';
import { REALTIME_REPLAY_HOURS, REALTIME_REPLAY_MAX, type StoredHotelEvent } from './events';

/** What a client with cursor `since` missed, read in one statement (one snapshot). */
export interface Backlog {
  /** The hotel's last event id (0 if none is kept). */
  head: number;
  /** The last id the purge removed for this hotel (0 if none). */
  horizon: number;
  events: (StoredHotelEvent & { fresh: boolean })[];
}

export type ResyncReason = 'unknown_position' | 'too_old' | 'too_far_behind';

/** Where a socket stands after its catch-up, and what it is sent. */
export interface ReplayPlan {
  cursor: number;
  /** Set when the missed events cannot be replayed: the client reloads instead. */
  resync?: ResyncReason;
  events: StoredHotelEvent[];
}

/** The hotel's last position handed out: its last event, kept or already purged (where a new client starts). */
export function lastPosition(backlog: Backlog): number {
  return Math.max(backlog.head, backlog.horizon);
}

/**
 * From `from` (the client's cursor): the missed events, or a resync when more than REALTIME_REPLAY_MAX were missed,
 * some are older than the replay window (still kept or already purged), or the position was never handed out.
 */
export function planReplay(from: number, backlog: Backlog): ReplayPlan {
  const known = lastPosition(backlog);
  let resync: ResyncReason | undefined;
  if (from > known) resync = 'unknown_position';
  else if (from < backlog.horizon || backlog.events.some((event) => !event.fresh)) resync = 'too_old';
  else if (backlog.events.length > REALTIME_REPLAY_MAX) resync = 'too_far_behind';
  if (resync) return { cursor: known, resync, events: [] };
  return { cursor: from, events: backlog.events.map(({ fresh: _fresh, ...event }) => event) };
}

/** Reads backlogs with at most `concurrency` queries at once (at connection, and after LISTEN comes back). */
export function createBacklogReader(db: Db, concurrency = 4): (hotelId: string, since: number) => Promise<Backlog> {
  let running = 0;
  const queue: (() => void)[] = [];

  async function limited<T>(work: () => Promise<T>): Promise<T> {
    // A finished query hands its slot straight to the next one waiting.
    if (running >= concurrency) await new Promise<void>((resolve) => queue.push(resolve));
    else running++;
    try {
      return await work();
    } finally {
      const next = queue.shift();
      if (next) next();
      else running--;
    }
  }

  async function read(hotelId: string, since: number): Promise<Backlog> {
    const result = await db.raw(
      `SELECT
         (SELECT coalesce(max(id), 0) FROM realtime_events WHERE hotel_id = :hotelId AND id > 0) AS head,
         (SELECT coalesce(max(purged_through), 0) FROM realtime_event_horizons WHERE hotel_id = :hotelId) AS horizon,
         (SELECT coalesce(json_agg(e ORDER BY e.id), CAST('[]' AS json)) FROM (
            SELECT id, type, payload, audience, created_at > now() - make_interval(hours => :hours) AS fresh
              FROM realtime_events
             WHERE hotel_id = :hotelId AND id > :since
             ORDER BY id
             LIMIT :limit
          ) e) AS events`,
      { hotelId, since, hours: REALTIME_REPLAY_HOURS, limit: REALTIME_REPLAY_MAX + 1 },
    );
    const row = (result as { rows: { head: string; horizon: string; events: Backlog['events'] }[] }).rows[0];
    return {
      head: Number(row.head),
      horizon: Number(row.horizon),
      events: row.events.map(({ audience, ...event }) => ({ ...event, hotelId, audience: audience ?? undefined })),
    };
  }

  return (hotelId, since) => limited(() => read(hotelId, since));
}
