import type { Knex } from 'knex';
import { decryptSecret, encryptSecret, type EncryptionKeys } from '../crypto';
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

/** How a table keeps one encrypted value per row, under the key its row names. */
export interface EnvelopeRows<Row> {
  lockUnderOtherKey(
    trx: Knex.Transaction,
    selection: { currentKeyId: string; limit: number; hotelId?: string },
  ): Promise<Row[]>;
  /** The row's envelope, its key, and what it is (named in the error when the key is not configured). */
  envelopeOf(row: Row): { envelope: string; keyId: string; what: string };
  write(trx: Knex.Transaction, row: Row, envelope: string, keyId: string): Promise<unknown>;
}

/**
 * Key rotation of one envelope per row: re-encrypts with `encryption.currentKeyId` every row still under another key,
 * `batchSize` rows per transaction; idempotent, `hotelId` limits it to one hotel. A key that is not configured stops it
 * with an error naming the row and the key, before anything of that row is lost.
 */
export function reencryptEnvelopes<Row>(
  db: Db,
  encryption: EncryptionKeys,
  rows: EnvelopeRows<Row>,
  batchSize: number,
  hotelId?: string,
): Promise<{ reencrypted: number }> {
  return rewriteInBatches(db, batchSize, async (trx, limit) => {
    const locked = await rows.lockUnderOtherKey(trx, { currentKeyId: encryption.currentKeyId, limit, hotelId });
    for (const row of locked) {
      const { envelope, keyId, what } = rows.envelopeOf(row);
      if (!encryption.keys[keyId]) throw new Error(`${what} is encrypted with key "${keyId}", which is not configured`);
      const renewed = encryptSecret(decryptSecret(envelope, encryption), encryption);
      await rows.write(trx, row, renewed, encryption.currentKeyId);
    }
    return locked.length;
  });
}
