import type { EncryptionKeys } from '../../platform/crypto';
import type { Db } from '../../platform/db/knex';
import { reencryptEnvelopes } from '../../platform/db/rewrite-batches';
import { connectionsRepository } from './channels.repository';

/**
 * Key rotation (`npm run rotate-keys`): re-encrypts with the current key the channel managers' API keys stored under
 * another key, `batchSize` connections per transaction. Idempotent; `hotelId` limits it to one hotel; a key under an
 * encryption key that is not configured stops the run with an error naming it.
 */
export function reencryptChannelKeys(
  db: Db,
  encryption: EncryptionKeys,
  batchSize = 500,
  options: { hotelId?: string } = {},
): Promise<{ reencrypted: number }> {
  return reencryptEnvelopes(
    db,
    encryption,
    {
      lockUnderOtherKey: (trx, selection) => connectionsRepository.lockUnderOtherKey(trx, selection),
      envelopeOf: (row) => ({
        envelope: row.api_key_encrypted,
        keyId: row.api_key_encrypted.split('.')[1],
        what: `channel connection of hotel ${row.hotel_id}: its API key`,
      }),
      write: (trx, row, envelope) => connectionsRepository.setKeyEnvelope(trx, row.hotel_id, envelope),
    },
    batchSize,
    options.hotelId,
  );
}
