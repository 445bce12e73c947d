import type { SharedReads } from './timeline.shared';

/** Who did what the entry tells: a member of staff, the guest, one of the service's own jobs, or a provider. */
export type Actor =
  | { type: 'staff'; id: string; name: string | null; role: string | null }
  | { type: 'guest' }
  | { type: 'system'; name: string }
  | { type: 'provider'; name: string };

/** A staff actor as a source knows one: by id (the service names them all at once). */
export type SourceActor = Exclude<Actor, { type: 'staff' }> | { type: 'staff'; id: string };

/** One thing that happened to the stay. */
export interface Entry<A = Actor> {
  at: Date;
  kind: string;
  summary: string;
  actor: A | null;
}

export type SourceEntry = Entry<SourceActor>;

/** What every source reads for: the hotel, the booking, and how many records of a kind it may read at most. */
export interface SourceRequest {
  hotelId: string;
  bookingId: string;
  limit: number;
  /** Whether the reader may read the audit log: only then are the fields a change wrote named. */
  readsAudit: boolean;
  /** The reads several sources share, made once per request. */
  shared: SharedReads;
}

/** What a source read: its entries, and whether it was cut at its bound (older records left out). */
export interface SourceRead {
  entries: SourceEntry[];
  cut: boolean;
}

/** A source: a name (said when it was cut at its bound) and a read of its entries. */
export interface TimelineSource<Deps> {
  name: string;
  read(deps: Deps, request: SourceRequest): Promise<SourceRead>;
}

/** A source's entries, cut when any of its reads returned `limit` records or more (it may have left older out). */
export const readOf = (entries: SourceEntry[], limit: number, ...counts: number[]): SourceRead => ({
  entries,
  cut: counts.some((count) => count >= limit),
});

/** What a durable workflow still means to do for the booking. */
export interface UpcomingEntry {
  at: string;
  kind: string;
  summary: string;
  actor: Actor;
}
