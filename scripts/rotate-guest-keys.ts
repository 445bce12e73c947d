import type { EncryptionKeys } from '../src/platform/crypto';
import { createDb } from '../src/platform/db/knex';
import { reencryptGuestDocuments } from '../src/modules/guests/guests.service';
import { reencryptChannelKeys } from '../src/modules/channels';
import { reencryptLockSecrets } from '../src/modules/lockvendor';
import { reencryptExemptionDocuments } from '../src/modules/tourist-tax';
import { reencryptGatewaySecrets } from '../src/modules/payments/payments.gateways';

/**
 * `npm run rotate-keys`: re-encrypts what is still under an older key with the current one: the guests' passport data,
 * the secret keys of the hotels' payment gateways, their door-lock cloud secrets (client secret, account password,
 * tokens), the channel managers' API keys, and the document numbers of tourist tax exemptions.
 * Reads DATABASE_URL, ENCRYPTION_KEYS (`id:base64-of-32-bytes,...`: the new key and every old one still in use) and
 * ENCRYPTION_KEY_ID (the new key; default the first listed), plus ROTATE_BATCH_SIZE (default 500). Deploy the API
 * and worker with the new ENCRYPTION_KEY_ID first, then run this; it is idempotent, so run it again after a failure.
 * Once it reports nothing left, the old key can be removed from ENCRYPTION_KEYS.
 */
function encryptionFromEnv(env: NodeJS.ProcessEnv): EncryptionKeys {
  const list = env.ENCRYPTION_KEYS;
  if (!list) throw new Error('ENCRYPTION_KEYS is required');
  const keys: Record<string, Buffer> = {};
  for (const entry of list.split(',')) {
    const [id, encoded] = entry.trim().split(':');
    const key = Buffer.from(encoded ?? '', 'base64');
    if (!/^[\w-]+$/.test(id ?? '') || key.length !== 32) {
      throw new Error('ENCRYPTION_KEYS must be id:base64-of-32-bytes[,id:key...]');
    }
    keys[id] = key;
  }
  const currentKeyId = env.ENCRYPTION_KEY_ID ?? Object.keys(keys)[0];
  if (!keys[currentKeyId]) throw new Error(`ENCRYPTION_KEY_ID "${currentKeyId}" is not in ENCRYPTION_KEYS`);
  return { keys, currentKeyId };
}

async function main(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) throw new Error('DATABASE_URL is required');
  const encryption = encryptionFromEnv(process.env);
  const batchSize = Number(process.env.ROTATE_BATCH_SIZE ?? 500);
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new Error('ROTATE_BATCH_SIZE must be a positive integer');
  const db = createDb(databaseUrl, { role: 'migrations', poolMax: 2 });
  try {
    const { reencrypted } = await reencryptGuestDocuments(db, encryption, batchSize);
    console.log(`re-encrypted the passport data of ${reencrypted} guest(s) with key "${encryption.currentKeyId}"`);
    const gateways = await reencryptGatewaySecrets(db, encryption, batchSize);
    console.log(
      `re-encrypted the secret keys of ${gateways.reencrypted} payment gateway(s) with key "${encryption.currentKeyId}"`,
    );
    const locks = await reencryptLockSecrets(db, encryption, batchSize);
    console.log(
      `re-encrypted the door-lock secrets of ${locks.reencrypted} hotel(s) with key "${encryption.currentKeyId}"`,
    );
    const channels = await reencryptChannelKeys(db, encryption, batchSize);
    console.log(
      `re-encrypted the channel-manager keys of ${channels.reencrypted} hotel(s) with key "${encryption.currentKeyId}"`,
    );
    const exemptions = await reencryptExemptionDocuments(db, encryption, batchSize);
    console.log(
      `re-encrypted the documents of ${exemptions.reencrypted} tourist tax exemption(s) with key "${encryption.currentKeyId}"`,
    );
  } finally {
    await db.destroy();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
