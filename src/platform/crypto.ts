import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  hkdfSync,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';

/** A random token written as hex: 32 bytes give the spec's 64 characters, 40 bytes its 80. */
export function randomHexToken(bytes: number): string {
  return randomBytes(bytes).toString('hex');
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/**
 * Tokens that need no storing: an HMAC of the record's ids under a key derived (HKDF, `salt` and `info` naming the
 * use) from the server's secret, so the same record always has the same token, also when it is made again by a retry.
 */
export function keyedTokens(secret: string, salt: string, info: string) {
  const key = Buffer.from(hkdfSync('sha256', secret, salt, info, 32));
  const of = (...ids: string[]) => createHmac('sha256', key).update(ids.join(':')).digest('hex');
  return {
    /** 64 hex characters. */
    of,
    /** Whether `token` is the one of `ids`, compared in constant time. */
    matches(token: string, ...ids: string[]): boolean {
      const given = Buffer.from(token, 'hex');
      const expected = Buffer.from(of(...ids), 'hex');
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
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
