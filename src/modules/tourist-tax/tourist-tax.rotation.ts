import type { EncryptionKeys } from '../../platform/crypto';
import type { Db } from '../../platform/db/knex';
import { reencryptEnvelopes } from '../../platform/db/rewrite-batches';
import { exemptionsRepository } from './tourist-tax.repository';

/** Re-encrypts the exemptions' document numbers still under an older key with the current one (`npm run rotate-keys`). */
export function reencryptExemptionDocuments(
  db: Db,
  encryption: EncryptionKeys,
  batchSize = 500,
  options: { hotelId?: string } = {},
): Promise<{ reencrypted: number }> {
  return reencryptEnvelopes(
    db,
    encryption,
    {
      lockUnderOtherKey: (trx, selection) => exemptionsRepository.lockUnderOtherKey(trx, selection),
      envelopeOf: (row) => ({
        envelope: row.document_number_encrypted,
        keyId: row.document_key_id,
        what: `tourist tax exemption of booking ${row.booking_id}: its document`,
      }),
      write: (trx, row, envelope, keyId) =>
        exemptionsRepository.setDocument(trx, row.hotel_id, row.booking_id, envelope, keyId),
    },
    batchSize,
    options.hotelId,
  );
}
