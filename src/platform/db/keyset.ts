import type { Knex } from 'knex';
import { ValidationError } from '../errors';
import { databaseError } from './base-model';
import type { DbOrTrx } from './knex';

/**
 * Keyset pagination: a page is the rows after a position in a total order, so rows added or removed meanwhile never
 * make a page skip or repeat one (an offset would).
 */

/**
 * One key of a list's order, an SQL expression over the tables of the list query (`start_at`, `i.name`,
 * `coalesce(floor, -10000)`), with the PostgreSQL type a cursor value is read back as. Keys are never null.
 */
export interface SortKey {
  sql: string;
  type: 'text' | 'uuid' | 'integer' | 'numeric' | 'date' | 'timestamptz';
  desc?: boolean;
}

/** A position in a list: the sort key of its last item, each value as PostgreSQL prints it (exact, any precision). */
export type Cursor = readonly string[];

export interface PageRequest {
  limit: number;
  /** The rows after this position; the first page without one. */
  cursor?: Cursor;
}

export interface Page<T> {
  items: T[];
  /** Where the next page starts; absent on the last page. */
  next?: Cursor;
}

export const cursorMessage = 'cursor is not a position in this list: pass on the cursor a previous page gave';

function badCursor(): ValidationError {
  return new ValidationError(`Некорректные данные: ${cursorMessage}`, [
    { path: 'query.cursor', message: cursorMessage },
  ]);
}

/** Rows strictly after `cursor` in the order of `keys`: each key decides where the ones before it tie. */
function after(query: Knex.QueryBuilder, keys: readonly SortKey[], cursor: Cursor): void {
  query.where((later) => {
    keys.forEach((key, index) => {
      later.orWhere((here) => {
        keys.slice(0, index).forEach((tied, i) => here.whereRaw(`${tied.sql} = ?::${tied.type}`, [cursor[i]]));
        here.whereRaw(`${key.sql} ${key.desc ? '<' : '>'} ?::${key.type}`, [cursor[index]]);
      });
    });
  });
}

/**
 * One page of `query` (its columns, named with `select`, and filters; no order, no limit) in the order of `keys`,
 * whose last key must be unique (the id) so the order is total. The sort key travels in the cursor as text, so
 * timestamps keep their microseconds; a cursor PostgreSQL cannot read back as those types, or of another length, is a
 * 400.
 */
export async function pageOf<Row extends object>(
  db: DbOrTrx,
  query: Knex.QueryBuilder,
  keys: readonly SortKey[],
  request: PageRequest,
): Promise<Page<Row>> {
  const { cursor, limit } = request;
  if (cursor && cursor.length !== keys.length) throw badCursor();
  const aliases = keys.map((_, index) => `page_key_${index}`);
  keys.forEach((key, index) => query.select(db.raw(`(${key.sql})::text AS ??`, [aliases[index]])));
  for (const key of keys) query.orderByRaw(`${key.sql} ${key.desc ? 'DESC' : 'ASC'}`);
  if (cursor) after(query, keys, cursor);
  let rows: Record<string, unknown>[];
  try {
    rows = await query.limit(limit + 1);
  } catch (error) {
    // Class 22, data exception: a cursor value that is not of its key's type (a date that does not exist...).
    if (cursor && databaseError(error).code?.startsWith('22')) throw badCursor();
    throw error;
  }
  const items = rows.slice(0, limit).map((row) => {
    const item = { ...row };
    for (const alias of aliases) delete item[alias];
    return item as Row;
  });
  const last = rows.length > limit ? rows[limit - 1] : undefined;
  return { items, ...(last && { next: aliases.map((alias) => String(last[alias])) }) };
}

export function mapPage<T, U>(page: Page<T>, present: (item: T) => U): Page<U> {
  return { ...page, items: page.items.map(present) };
}
