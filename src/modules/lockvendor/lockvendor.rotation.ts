import { decryptSecret, encryptSecret, type EncryptionKeys } from '../../platform/crypto';
import type { Db } from '../../platform/db/knex';
import { rewriteInBatches } from '../../platform/db/rewrite-batches';
import { configRepository } from './lockvendor.repository';
import { ENCRYPTED_COLUMNS, type EncryptedColumn } from './lockvendor.types';

/**
 * Key rotation: re-encrypts with `encryption.currentKeyId` every envelope of the lock configurations (client secret,
 * password, tokens) stored under another key, `batchSize` hotels per transaction; a rewritten row no longer matches,
 * so each batch is the next rows still to do. Idempotent. `hotelId` limits it to one hotel. An envelope under a key
 * that is not configured stops the run with an error naming the key. Returns how many hotels were re-encrypted.
 */
export async function reencryptLockSecrets(
  db: Db,
  encryption: EncryptionKeys,
  batchSize = 500,
  options: { hotelId?: string } = {},
): Promise<{ reencrypted: number }> {
  return rewriteInBatches(db, batchSize, async (trx, limit) => {
    const selection = { currentKeyId: encryption.currentKeyId, limit, hotelId: options.hotelId };
    const rows = await configRepository.lockUnderOtherKey(trx, selection);
    for (const row of rows) {
      const envelopes: Partial<Record<EncryptedColumn, string>> = {};
      for (const column of ENCRYPTED_COLUMNS) {
        const envelope = row[column];
        if (envelope === null) continue;
        const keyId = envelope.split('.')[1];
        if (!encryption.keys[keyId]) {
          throw new Error(
            `lock configuration of hotel ${row.hotel_id}: ${column} is encrypted with key "${keyId}", which is not configured`,
          );
        }
        envelopes[column] = encryptSecret(decryptSecret(envelope, encryption), encryption);
      }
      await configRepository.setEnvelopes(trx, row.hotel_id, envelopes);
    }
    return rows.length;
  });
}
