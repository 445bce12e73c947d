import type { Knex } from 'knex';
import { personalDataRows, type Link } from './db/personal-data-rows';
import type { ErasureTarget } from './erasure-target';
import { ERASED, scrubJson, scrubText } from './personal-data-scrub';

export type { Link } from './db/personal-data-rows';
export type { ErasureTarget } from './erasure-target';

/** What erasing a place came to: the rows changed, and objects to remove from the store once the erasure commits. */
export interface Erased {
  rows: number;
  objects?: string[];
}

/**
 * One place a module keeps guests' personal data (its `personalData` declaration): erased in the retention batch's
 * transaction. `table` names the table it writes, for the check that every table holding contacts is declared.
 */
export interface ErasurePlace {
  place: string;
  table: string;
  erase(trx: Knex.Transaction, target: ErasureTarget): Promise<Erased>;
}

/** A place whose linked rows are overwritten with fixed values (deleted when `set` is null). */
export function overwritten(
  place: string,
  table: string,
  link: Link,
  set: ((trx: Knex.Transaction, target: ErasureTarget) => Record<string, unknown>) | null,
): ErasurePlace {
  return {
    place,
    table,
    erase: async (trx, target) => ({
      rows: await personalDataRows.overwrite(trx, table, link, target, set ? set(trx, target) : null),
    }),
  };
}

/** A place erased by its module's own query (rows tied to the guest other than by a link). */
export function erasedBy(
  place: string,
  table: string,
  erase: (trx: Knex.Transaction, target: ErasureTarget) => Promise<number>,
): ErasurePlace {
  return { place, table, erase: async (trx, target) => ({ rows: await erase(trx, target) }) };
}

/**
 * A place of free text or JSON where a guest's name, contacts or documents may have been written: in each linked row
 * the values are replaced by the marker where they stand whole; JSON is rewritten string leaf by string leaf, so
 * numbers, ids and dates stay as they were. Linked rows (own bookings, profiles) are scrubbed of the surname too; the
 * hotel's unlinked rows only of the distinctive values.
 */
export function scrubbed(table: string, link: Link, columns: { name: string; json?: boolean }[]): ErasurePlace {
  const names = columns.map((column) => column.name);
  return {
    place: `${table} (${names.join(', ')})`,
    table,
    async erase(trx, target) {
      const needles = link === 'hotel' || link === 'outbox' ? target.needles : target.linkedNeedles;
      const rows = await personalDataRows.linkedRows(trx, table, link, target, names);
      let changed = 0;
      for (const row of rows) {
        const changes: Record<string, unknown> = {};
        for (const { name, json } of columns) {
          const value = row[name];
          if (value === null || value === undefined) continue;
          const scrubbedValue = json ? scrubJson(value, needles) : scrubText(String(value), needles);
          if (JSON.stringify(scrubbedValue) !== JSON.stringify(value))
            changes[name] = json ? JSON.stringify(scrubbedValue) : scrubbedValue;
        }
        if (Object.keys(changes).length === 0) continue;
        await personalDataRows.rewrite(trx, table, link, target.hotelId, row.ctid as string, changes);
        changed += 1;
      }
      return { rows: changed };
    },
  };
}

/** The platform's own tables that may carry a guest's values (the realtime replay, idempotent answers, the outbox). */
export const PLATFORM_PERSONAL_DATA: readonly ErasurePlace[] = [
  scrubbed('realtime_events', 'hotel', [{ name: 'payload', json: true }]),
  scrubbed('idempotency_keys', 'hotel', [{ name: 'response_body', json: true }]),
  scrubbed('outbox', 'outbox', [{ name: 'message', json: true }]),
];

export { ERASED };
