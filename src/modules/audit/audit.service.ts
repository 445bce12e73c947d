import type { Page, PageRequest } from '../../platform/db/keyset';
import type { Db } from '../../platform/db/knex';
import { VERIFY_MAX } from './audit.constants';
import { auditRepository, type ChainLink } from './audit.repository';
import type { AuditEntry, AuditFilter, ChainBreak, ChainVerdict } from './audit.types';

/** Links read per query while the chain is checked. */
const VERIFY_BATCH = 5000;

/** What is wrong with `link`, the `expected`-th entry, following the entry whose hash was `previous`; or nothing. */
function breakOf(link: ChainLink, expected: number, previous: string | null): ChainBreak | undefined {
  if (link.seq !== expected) return 'entry_missing';
  if (link.prev_hash !== previous) return 'previous_hash_mismatch';
  if (link.computed !== link.hash) return 'content_changed';
  return undefined;
}

/**
 * The audit log (docs/decisions/audit-log.md): the database's triggers write it; this reads it and checks its chain.
 * `forResource` is the door other modules read a record's history through (the booking's timeline).
 */
export function createAuditService(db: Db) {
  return {
    list(hotelId: string, query: AuditFilter & PageRequest): Promise<Page<AuditEntry>> {
      const { limit, cursor, ...filter } = query;
      return auditRepository.list(db, hotelId, filter, { limit, cursor });
    },

    /** The latest `limit` entries of one record (`bookings`, its id), oldest first. */
    forResource(hotelId: string, resource: string, id: string, limit: number): Promise<AuditEntry[]> {
      return auditRepository.forResource(db, hotelId, resource, id, limit);
    },

    /**
     * The latest `limit` entries of these records that wrote `field`, oldest first: a booking's status moves, who
     * closed deposits, who placed orders (their insert wrote `created_at`).
     */
    writesOf(
      hotelId: string,
      records: { resource: string; ids: string[] },
      field: string,
      limit: number,
    ): Promise<AuditEntry[]> {
      if (records.ids.length === 0) return Promise.resolve([]);
      return auditRepository.writesOf(db, hotelId, records, field, limit);
    },

    /**
     * The latest `limit` entries of `of.resource` these requests wrote for one record (their `of.field` is `of.id`),
     * oldest first: the rows a change wrote beside its record's (a booking's room segments, written with the booking
     * by a move).
     */
    ofRequests(
      hotelId: string,
      of: { resource: string; field: string; id: string },
      requestIds: string[],
      limit: number,
    ): Promise<AuditEntry[]> {
      if (requestIds.length === 0) return Promise.resolve([]);
      return auditRepository.ofRequests(db, hotelId, of, requestIds, limit);
    },

    /**
     * Checks the hotel's chain from entry `fromSeq` (its previous entry's stored hash taken as given), at most `limit`
     * entries, up to the head read first (entries committed meanwhile are left to the next call): each number follows
     * the last, each entry names the previous entry's hash and its content still has its own; at the head, its hash is
     * the head's. The first link that is not so is named; otherwise `next_from_seq` says where to go on, if anywhere.
     */
    async verify(hotelId: string, fromSeq = 1, limit = VERIFY_MAX): Promise<ChainVerdict> {
      const head = (await auditRepository.head(db, hotelId)) ?? { last_seq: 0, last_hash: null };
      const through = Math.min(head.last_seq, fromSeq + limit - 1);
      let expected = fromSeq;
      let previous = fromSeq > 1 ? await auditRepository.hashOf(db, hotelId, fromSeq - 1) : null;
      if (previous === undefined) return { intact: false, entries: 0, broken_at: fromSeq - 1, reason: 'entry_missing' };
      while (expected <= through) {
        const links = await auditRepository.links(
          db,
          hotelId,
          expected - 1,
          Math.min(VERIFY_BATCH, through - expected + 1),
        );
        for (const link of links) {
          const reason = breakOf(link, expected, previous);
          if (reason) return { intact: false, entries: expected - fromSeq, broken_at: expected, reason };
          previous = link.hash;
          expected += 1;
        }
        if (links.length === 0) break;
      }
      const checked = expected - fromSeq;
      if (expected <= through || (through === head.last_seq && head.last_seq >= fromSeq && previous !== head.last_hash))
        return { intact: false, entries: checked, broken_at: expected, reason: 'head_mismatch' };
      return {
        intact: true,
        entries: checked,
        last_hash: previous,
        ...(through < head.last_seq && { next_from_seq: through + 1 }),
      };
    },
  };
}

export type AuditService = ReturnType<typeof createAuditService>;
