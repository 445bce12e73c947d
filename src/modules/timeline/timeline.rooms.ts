import type { AuditEntry } from '../audit';
import type { TimelineDependencies } from './timeline.dependencies';
import { auditActor, BOOKKEEPING, ROOM_COLUMNS } from './timeline.changes';
import { readOf, type SourceEntry, type SourceRequest, type TimelineSource } from './timeline.types';

/** What a move writes on the booking row besides its segments: bookkeeping, its room now and, repriced, its price. */
const MOVE_FIELDS = new Set([...BOOKKEEPING, ...ROOM_COLUMNS, 'price']);

/** A stretch of the stay in one room, as a request left it. */
interface Segment {
  roomId: string;
  start: Date;
}

const writesRoom = (entry: AuditEntry) => entry.action === 'update' && typeof entry.after?.room_id === 'string';

/** A change that may have written the booking's segments: its creation, or one of nothing but its rooms (a move). */
const mayMove = (entry: AuditEntry) =>
  entry.action === 'insert' ||
  (entry.action === 'update' && Object.keys(entry.after ?? {}).every((field) => MOVE_FIELDS.has(field)));

/** The start of a `tstzrange` as the audit log keeps its text (`["2026-11-28 11:00:00+03","…")`). */
function startOf(during: unknown): Date | undefined {
  const bound = /^[[(]"?([^",]+)"?,/.exec(String(during))?.[1];
  if (!bound) return undefined;
  const at = new Date(bound.replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00'));
  return Number.isNaN(at.getTime()) ? undefined : at;
}

/** The segments a request left: those it inserted and did not delete again, in time order. */
function segmentsLeft(written: AuditEntry[]): Segment[] {
  const left = new Map<string, Segment>();
  for (const entry of written) {
    const key = entry.resource_id ?? '';
    if (entry.action === 'delete') left.delete(key);
    const start = entry.action === 'insert' ? startOf(entry.after?.during) : undefined;
    if (start && typeof entry.after?.room_id === 'string') left.set(key, { roomId: entry.after.room_id, start });
  }
  return [...left.values()].sort((a, b) => a.start.getTime() - b.start.getTime());
}

/** Entries grouped by the request that wrote them, in the order of their first entry. */
function byRequest(entries: AuditEntry[]): Map<string, AuditEntry[]> {
  const grouped = new Map<string, AuditEntry[]>();
  for (const entry of entries)
    if (entry.request_id) grouped.set(entry.request_id, [...(grouped.get(entry.request_id) ?? []), entry]);
  return grouped;
}

/** What a request did to the stay's rooms: split it at its creation, or planned a move (nothing if it moved now). */
function planOf(changes: AuditEntry[], segments: Segment[]) {
  const created = changes.find((entry) => entry.action === 'insert');
  if (created) return segments.length > 1 ? { entry: created, kind: 'split_stay', said: 'Split stay' } : undefined;
  if (segments.length === 0 || changes.some(writesRoom)) return undefined;
  return { entry: changes[0], kind: 'room_move_planned', said: 'Move planned' };
}

/** The booking row's latest changes that may have moved it, and apart its writes of a room (its creation too). */
async function changesOf({ audit }: TimelineDependencies, { hotelId, bookingId, limit, shared }: SourceRequest) {
  const logged = await shared.changes();
  const roomWrites = await audit.writesOf(hotelId, { resource: 'bookings', ids: [bookingId] }, 'room_id', limit);
  const seen = new Set(roomWrites.map((entry) => entry.seq));
  const candidates = [...roomWrites, ...logged.filter((entry) => mayMove(entry) && !seen.has(entry.seq))];
  return { logged, roomWrites, changes: byRequest(candidates.sort((a, b) => a.seq - b.seq)) };
}

/**
 * The stay's rooms, from the audit log: a split stay (rooms in turn from its creation), a move planned for a later
 * night (the segments the move wrote, each room from its first night), and every change of the guest's room (a move
 * carried out, or a room changed by hand), each with who made it. The booking row's writes of its room are read apart
 * from its latest changes (payments and orders write the row too: a long stay's creation and first moves would fall
 * out of those); the segments' writes are found by the requests that changed the booking row (a move always does).
 */
export const rooms: TimelineSource<TimelineDependencies> = {
  name: 'rooms',
  async read(deps, request) {
    const { audit, rooms, hotels } = deps;
    const { hotelId, bookingId, limit } = request;
    const { logged, roomWrites, changes } = await changesOf(deps, request);
    const ofBooking = { resource: 'booking_rooms', field: 'booking_id', id: bookingId };
    const written = await audit.ofRequests(hotelId, ofBooking, [...changes.keys()], limit);
    const segmentsOf = byRequest(written);
    const plans = [...changes].flatMap(([requestId, own]) => {
      const segments = segmentsLeft(segmentsOf.get(requestId) ?? []);
      const plan = planOf(own, segments);
      return plan ? [{ ...plan, segments }] : [];
    });
    const moved = roomWrites.filter(writesRoom);
    const roomIds = [
      ...plans.flatMap((plan) => plan.segments.map((segment) => segment.roomId)),
      ...moved.flatMap((entry) => [entry.before?.room_id, entry.after?.room_id]),
    ].filter((id): id is string => typeof id === 'string');
    const numbers = new Map((await rooms.numbersOf(hotelId, [...new Set(roomIds)])).map((r) => [r.id, r.number]));
    const room = (id: unknown) => numbers.get(String(id)) ?? 'a room removed since';
    const day = plans.length ? await localDay(hotels, hotelId) : () => '';
    const entries: SourceEntry[] = [
      ...plans.map(({ entry, kind, said, segments }) => ({
        at: entry.at,
        kind,
        summary: `${said}: ${segments.map((s) => `room ${room(s.roomId)} from ${day(s.start)}`).join(', ')}`,
        actor: auditActor(entry.actor),
      })),
      ...moved.map((entry) => ({
        at: entry.at,
        kind: 'room_moved',
        summary: `Room ${room(entry.before?.room_id)} → ${room(entry.after?.room_id)}`,
        actor: auditActor(entry.actor),
      })),
    ];
    return readOf(entries, limit, logged.length, roomWrites.length, written.length);
  },
};

/** The hotel's local date of an instant (a segment's first night). */
async function localDay(hotels: TimelineDependencies['hotels'], hotelId: string) {
  const hotel = await hotels.find(hotelId);
  const format = new Intl.DateTimeFormat('en-CA', { timeZone: hotel?.timezone ?? 'UTC' });
  return (at: Date) => format.format(at);
}
