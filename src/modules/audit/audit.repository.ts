import type { Knex } from 'knex';
import { pageOf, type Page, type PageRequest, type SortKey } from '../../platform/db/keyset';
import type { DbOrTrx } from '../../platform/db/knex';
import type { AuditEntry, AuditFilter } from './audit.types';

/** Newest first; `seq` is unique within a hotel. */
const NEWEST_FIRST: readonly SortKey[] = [{ sql: 'seq', type: 'numeric', desc: true }];

interface EntryRow extends Omit<AuditEntry, 'actor' | 'seq'> {
  seq: string;
  actor_kind: string;
  actor_id: string | null;
  actor_role: string | null;
}

const COLUMNS = [
  'seq',
  'at',
  'actor_kind',
  'actor_id',
  'actor_role',
  'operation',
  'resource',
  'resource_id',
  'action',
  'before',
  'after',
  'request_id',
  'idempotency_key',
  'address',
  'prev_hash',
  'hash',
];

function entryOf({ actor_kind, actor_id, actor_role, seq, ...rest }: EntryRow): AuditEntry {
  return { ...rest, seq: Number(seq), actor: { kind: actor_kind, id: actor_id, role: actor_role } };
}

/** A hotel's entries (those of transactions still open wait in `audit_pending` and are not read). */
function entries(db: DbOrTrx, hotelId: string): Knex.QueryBuilder {
  return db('audit_entries').where({ hotel_id: hotelId });
}

/** One link of the chain as stored, with the hash its content has now. */
export interface ChainLink {
  seq: number;
  hash: string | null;
  prev_hash: string | null;
  computed: string;
}

export const auditRepository = {
  async list(db: DbOrTrx, hotelId: string, filter: AuditFilter, page: PageRequest): Promise<Page<AuditEntry>> {
    const query = entries(db, hotelId).select(COLUMNS);
    if (filter.resource) query.where('resource', filter.resource);
    if (filter.resource_id) query.where('resource_id', filter.resource_id);
    if (filter.actor_kind) query.where('actor_kind', filter.actor_kind);
    if (filter.actor_id) query.where('actor_id', filter.actor_id);
    if (filter.operation) query.where('operation', filter.operation);
    if (filter.from) query.where('at', '>=', filter.from);
    if (filter.to) query.where('at', '<', filter.to);
    const found = await pageOf<EntryRow>(db, query, NEWEST_FIRST, page);
    return { ...found, items: found.items.map(entryOf) };
  },

  async forResource(db: DbOrTrx, hotelId: string, resource: string, id: string, limit: number): Promise<AuditEntry[]> {
    const rows = (await entries(db, hotelId)
      .where({ resource, resource_id: id })
      .orderBy('seq', 'desc')
      .limit(limit)
      .select(COLUMNS)) as EntryRow[];
    return rows.reverse().map(entryOf);
  },

  /** The latest `limit` entries of these records that wrote `field` (a booking's status moves), oldest first. */
  async writesOf(
    db: DbOrTrx,
    hotelId: string,
    records: { resource: string; ids: string[] },
    field: string,
    limit: number,
  ): Promise<AuditEntry[]> {
    const rows = (await entries(db, hotelId)
      .where('resource', records.resource)
      .whereIn('resource_id', records.ids)
      .whereRaw('(after ->> ?) IS NOT NULL', [field])
      .orderBy('seq', 'desc')
      .limit(limit)
      .select(COLUMNS)) as EntryRow[];
    return rows.reverse().map(entryOf);
  },

  /**
   * The latest `limit` entries of `of.resource` written by these requests for one record (their `of.field` names it,
   * after the write or, deleted, before), oldest first.
   */
  async ofRequests(
    db: DbOrTrx,
    hotelId: string,
    of: { resource: string; field: string; id: string },
    requestIds: string[],
    limit: number,
  ): Promise<AuditEntry[]> {
    const rows = (await entries(db, hotelId)
      .whereIn('request_id', requestIds)
      .where('resource', of.resource)
      .whereRaw('coalesce(after ->> ?, before ->> ?) = ?', [of.field, of.field, of.id])
      .orderBy('seq', 'desc')
      .limit(limit)
      .select(COLUMNS)) as EntryRow[];
    return rows.reverse().map(entryOf);
  },

  /** Up to `limit` links after `afterSeq`, in order, each with the hash its stored content has now. */
  async links(db: DbOrTrx, hotelId: string, afterSeq: number, limit: number): Promise<ChainLink[]> {
    const rows = (await entries(db, hotelId)
      .where('seq', '>', afterSeq)
      .orderBy('seq')
      .limit(limit)
      .select('seq', 'hash', 'prev_hash', db.raw('audit_entry_hash(audit_entries) AS computed'))) as (Omit<
      ChainLink,
      'seq'
    > & { seq: string })[];
    return rows.map((row) => ({ ...row, seq: Number(row.seq) }));
  },

  /** The stored hash of entry `seq`; undefined when there is none. */
  async hashOf(db: DbOrTrx, hotelId: string, seq: number): Promise<string | null | undefined> {
    const row = (await entries(db, hotelId).where({ seq }).first('hash')) as { hash: string | null } | undefined;
    return row?.hash;
  },

  async head(db: DbOrTrx, hotelId: string): Promise<{ last_seq: number; last_hash: string | null } | undefined> {
    const row = (await db('audit_heads').where({ hotel_id: hotelId }).first('last_seq', 'last_hash')) as
      { last_seq: string; last_hash: string | null } | undefined;
    return row && { last_seq: Number(row.last_seq), last_hash: row.last_hash };
  },
};
