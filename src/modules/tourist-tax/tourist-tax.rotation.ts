import { decryptSecret, encryptSecret, type EncryptionKeys } from '../../platform/crypto';
import type { Db } from '../../platform/db/knex';
import { rewriteInBatches } from '../../platform/db/rewrite-batches';
import { exemptionsRepository } from './tourist-tax.repository';

/**
 * Re-encrypts the exemptions' document numbers still under an older key with the current one (`npm run rotate-keys`),
 * a batch per transaction; a key that is not configured stops it before anything of that row is lost.
 */
export async function reencryptExemptionDocuments(
  db: Db,
  encryption: EncryptionKeys,
  batchSize = 500,
  options: { hotelId?: string } = {},
): Promise<{ reencrypted: number }> {
  return rewriteInBatches(db, batchSize, async (trx, limit) => {
    const selection = { currentKeyId: encryption.currentKeyId, limit, hotelId: options.hotelId };
    const rows = await exemptionsRepository.lockUnderOtherKey(trx, selection);
    for (const row of rows) {
      if (!encryption.keys[row.document_key_id])
        throw new Error(
          `tourist tax exemption of booking ${row.booking_id}: its document is encrypted with key ` +
            `"${row.document_key_id}", which is not configured`,
        );
      const envelope = encryptSecret(decryptSecret(row.document_number_encrypted, encryption), encryption);
      await exemptionsRepository.setDocument(trx, row.hotel_id, row.booking_id, envelope, encryption.currentKeyId);
    }
    return rows.length;
  });
}
