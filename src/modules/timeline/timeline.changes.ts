import type { AuditEntry } from '../audit';
import { guest, job, provider, staff } from './timeline.actors';
import type { TimelineDependencies } from './timeline.dependencies';
import { readOf, type SourceActor, type TimelineSource } from './timeline.types';

/** The columns a status move writes: the statuses source tells those moves, the changes source the rest. */
const STATUS_COLUMNS = new Set(['status', 'checked_in_at', 'checked_out_at', 'cancelled_at', 'cancel_reason']);
/**
 * Columns that say nothing a source does not: every change's bookkeeping, the instants that follow the dates and the
 * status moves, and the money the money sources tell (payments, charges).
 */
export const BOOKKEEPING = new Set(['updated_at', 'version', 'start_at', 'end_at', 'paid_amount', 'charges_amount']);
/** The columns a change of rooms writes: the rooms source tells those changes (a move, a room changed). */
export const ROOM_COLUMNS = new Set(['room_id', 'category_id']);

/** Who the audit log names as having made a change, as the timeline names actors. */
export function auditActor({ kind, id }: AuditEntry['actor']): SourceActor | null {
  if (kind === 'staff' || kind === 'user') return staff(id);
  if (kind === 'guest') return guest;
  if (kind === 'job') return id ? job(id) : null;
  if (kind === 'provider' || kind === 'agent') return provider(id ?? kind);
  return null;
}

/** The fields a change of the booking wrote, but for its status move and bookkeeping. */
const changedFields = (entry: AuditEntry) =>
  Object.keys(entry.after ?? {}).filter(
    (field) => !STATUS_COLUMNS.has(field) && !BOOKKEEPING.has(field) && !ROOM_COLUMNS.has(field),
  );

/**
 * The booking's changes recorded by the audit log (its creation and status moves are the statuses source's): each
 * with the fields it changed (their values are the log's to show, personal data masked) and who made it.
 */
export const changes: TimelineSource<TimelineDependencies> = {
  name: 'changes',
  async read(_deps, request) {
    const logged = await request.shared.changes();
    const entries = logged
      .filter((entry) => entry.action === 'update' && changedFields(entry).length > 0)
      .map((entry) => ({
        at: entry.at,
        kind: 'changed',
        // The fields are the audit log's to name: to those who may read it.
        summary: request.readsAudit ? `Changed: ${changedFields(entry).join(', ')}` : 'Changed',
        actor: auditActor(entry.actor),
      }));
    return readOf(entries, request.limit, logged.length);
  },
};
