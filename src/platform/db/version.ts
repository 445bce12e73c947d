import type { Knex } from 'knex';
import type { ExpectedVersion } from '../http/concurrency';

/**
 * Narrows a write of one row (`.modify(atVersion(expected))`) to the version `If-Match` names, so the check and the
 * write are one statement: of two writers holding the same version, the second finds the row changed and touches
 * nothing. Without `If-Match` (or with `*`) there is no condition. Versions are `updated_at` to the millisecond, as
 * clients see it.
 */
export function atVersion(expected: ExpectedVersion | undefined, column = 'updated_at') {
  return (query: Knex.QueryBuilder) => {
    if (expected === undefined || expected === '*') return;
    if (expected.length === 0) {
      query.whereRaw('false');
      return;
    }
    const instants = expected.map((epoch) => new Date(epoch).toISOString());
    query.whereRaw(`date_trunc('milliseconds', ??) = ANY(?::timestamptz[])`, [column, instants]);
  };
}
