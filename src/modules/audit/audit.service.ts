import type { Page, PageRequest } from '../../platform/db/keyset';
import type { Db } from '../../platform/db/knex';
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
     * Walks the hotel's chain from its first entry: each number follows the last, each entry names the previous
     * entry's hash and its content still has its own; the last one is the hotel's head. The first link that is not
     * so is named.
     */
    async verify(hotelId: string): Promise<ChainVerdict> {
      let expected = 1;
      let previous: string | null = null;
      for (;;) {
        const links = await auditRepository.links(db, hotelId, expected - 1, VERIFY_BATCH);
        for (const link of links) {
          const reason = breakOf(link, expected, previous);
          if (reason) return { intact: false, entries: expected - 1, broken_at: expected, reason };
          previous = link.hash;
          expected += 1;
        }
        if (links.length < VERIFY_BATCH) break;
      }
      const head = await auditRepository.head(db, hotelId);
      const entries = expected - 1;
      if (head && (head.last_seq !== entries || head.last_hash !== previous))
        return { intact: false, entries, broken_at: expected, reason: 'head_mismatch' };
      return { intact: true, entries, last_hash: previous };
    },
  };
}

export type AuditService = ReturnType<typeof createAuditService>;
