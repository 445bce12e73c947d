import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/** A random token written as hex: 32 bytes give the spec's 64 characters, 40 bytes its 80. */
export function randomHexToken(bytes: number): string {
  return randomBytes(bytes).toString('hex');
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

export interface EncryptionKeys {
  keys: Record<string, Buffer>;
  currentKeyId: string;
}

/**
 * AES-256-GCM with the current key; the result names its key (`v1.<keyId>.<iv>.<tag>.<ciphertext>`, base64url),
 * so values written under an older key still decrypt after the current key changes.
 */
export function encryptSecret(plaintext: string, { keys, currentKeyId }: EncryptionKeys): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keys[currentKeyId], iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v1', currentKeyId, iv, cipher.getAuthTag(), ciphertext]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
}

export function decryptSecret(envelope: string, { keys }: EncryptionKeys): string {
  const [version, keyId, iv, tag, ciphertext] = envelope.split('.');
  const key = keys[keyId];
  if (version !== 'v1' || !key) throw new Error(`cannot decrypt: unknown key "${keyId}"`);
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
}
