import { decryptSecret, encryptSecret, type EncryptionKeys } from '../../platform/crypto';
import type { Db } from '../../platform/db/knex';
import { rewriteInBatches } from '../../platform/db/rewrite-batches';
import { connectionsRepository } from './channels.repository';

/**
 * Key rotation: re-encrypts with `encryption.currentKeyId` the channel managers' API keys stored under another key,
 * `batchSize` connections per transaction. Idempotent; `hotelId` limits it to one hotel. A key under an encryption
 * key that is not configured stops the run with an error naming it. Returns how many were re-encrypted.
 */
export async function reencryptChannelKeys(
  db: Db,
  encryption: EncryptionKeys,
  batchSize = 500,
  options: { hotelId?: string } = {},
): Promise<{ reencrypted: number }> {
  return rewriteInBatches(db, batchSize, async (trx, limit) => {
    const selection = { currentKeyId: encryption.currentKeyId, limit, hotelId: options.hotelId };
    const rows = await connectionsRepository.lockUnderOtherKey(trx, selection);
    for (const row of rows) {
      const keyId = row.api_key_encrypted.split('.')[1];
      if (!encryption.keys[keyId]) {
        throw new Error(
          `channel connection of hotel ${row.hotel_id}: its API key is encrypted with key "${keyId}", which is not configured`,
        );
      }
      const envelope = encryptSecret(decryptSecret(row.api_key_encrypted, encryption), encryption);
      await connectionsRepository.setKeyEnvelope(trx, row.hotel_id, envelope);
    }
    return rows.length;
  });
}
