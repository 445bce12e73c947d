import type { WorkflowQueries } from '../../platform/temporal/workflow-queries';
import type { TimelineDependencies } from './timeline.dependencies';
import { changes } from './timeline.changes';
import { MONEY_SOURCES } from './timeline.money';
import { rooms } from './timeline.rooms';
import { STAY_SOURCES } from './timeline.stay';
import type { Actor, Entry, SourceActor, SourceEntry, TimelineSource } from './timeline.types';
import { sharedReads } from './timeline.shared';
import { upcomingOf } from './timeline.upcoming';

/** The most records each source reads (its latest), and the most entries a timeline shows (its latest). */
export const PER_SOURCE = 200;
export const MAX_ENTRIES = 1000;
const SOURCES_AT_ONCE = 4;

/** Where a timeline's entries come from, each a small read through another module's door. */
export const SOURCES: TimelineSource<TimelineDependencies>[] = [...STAY_SOURCES, rooms, changes, ...MONEY_SOURCES];

function staffIdsOf(entries: SourceEntry[]): string[] {
  const ids = entries.flatMap(({ actor }) => (actor?.type === 'staff' ? [actor.id] : []));
  return [...new Set(ids)];
}

/** `read` of every item, at most `size` at once: each one done starts the next (none waits for a slower group). */
async function atMost<T, R>(items: readonly T[], size: number, read: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) results[i] = await read(items[i]);
  };
  await Promise.all(Array.from({ length: Math.min(size, items.length) }, worker));
  return results;
}

const byTime = (a: SourceEntry, b: SourceEntry) => a.at.getTime() - b.at.getTime();

export function createTimelineService(
  deps: TimelineDependencies,
  workflows: Pick<WorkflowQueries, 'ask'>,
  sources: readonly TimelineSource<TimelineDependencies>[] = SOURCES,
) {
  /** Staff actors named (name and role) in one read; one no longer on the staff keeps only the id. */
  async function named(hotelId: string, entries: SourceEntry[]): Promise<Entry[]> {
    const ids = staffIdsOf(entries);
    const users = new Map((ids.length ? await deps.users.namesInHotel(hotelId, ids) : []).map((u) => [u.id, u]));
    const actorOf = (actor: SourceActor | null): Actor | null => {
      if (actor?.type !== 'staff') return actor;
      const user = users.get(actor.id);
      return { type: 'staff', id: actor.id, name: user?.name ?? null, role: user?.role ?? null };
    };
    return entries.map((entry) => ({ ...entry, actor: actorOf(entry.actor) }));
  }

  return {
    /** Everything that happened to the stay, oldest first, and what its workflows still mean to do. */
    async of(hotelId: string, bookingId: string, { readsAudit }: { readsAudit: boolean }) {
      const shared = sharedReads(deps, hotelId, bookingId, PER_SOURCE);
      await shared.booking();
      const request = { hotelId, bookingId, limit: PER_SOURCE, readsAudit, shared };
      // A few sources at a time: quicker than one by one, and one request takes few of the pool's connections.
      const readAll = async () => {
        const read = await atMost(sources, SOURCES_AT_ONCE, (source) => source.read(deps, request));
        const cut = sources.filter((_, i) => read[i].cut).map((source) => source.name);
        return { entries: read.flatMap((each) => each.entries).sort(byTime), cut };
      };
      // The workflows are asked while the database is read.
      const [read, upcoming] = await Promise.all([readAll(), upcomingOf(workflows, request)]);
      const kept = read.entries.slice(-MAX_ENTRIES);
      // Older records were left out by a source's bound (named), or older entries by the timeline's.
      const cut = kept.length < read.entries.length ? [...read.cut, 'entries'] : read.cut;
      return {
        booking_id: bookingId,
        entries: await named(hotelId, kept),
        truncated: cut.length > 0,
        cut_sources: cut,
        upcoming,
      };
    },
  };
}

export type TimelineService = ReturnType<typeof createTimelineService>;
