import type { Knex } from 'knex';
import type { Db } from './knex';

/**
 * Rewrites rows a batch per transaction until a batch comes back short: for rewrites (a key rotation) after which a
 * row no longer matches, so each batch is simply the next rows still to do. `rewriteBatch` handles at most `limit`
 * rows and answers how many it rewrote. Returns the total.
 */
export async function rewriteInBatches(
  db: Db,
  batchSize: number,
  rewriteBatch: (trx: Knex.Transaction, limit: number) => Promise<number>,
): Promise<{ reencrypted: number }> {
  const limit = Math.max(1, Math.floor(batchSize));
  let reencrypted = 0;
  let rewritten: number;
  do {
    rewritten = await db.transaction((trx) => rewriteBatch(trx, limit));
    reencrypted += rewritten;
  } while (rewritten === limit);
  return { reencrypted };
}
