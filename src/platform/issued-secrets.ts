import { timingSafeEqual } from 'node:crypto';
import { randomHexToken, sha256Hex } from './crypto';

/**
 * A secret this service makes for a machine of the hotel (the captive portal's controller, the TV system): 32 random
 * bytes (256 bits), answered once; only its SHA-256 is kept (no slow hash is needed against guessing 256 bits) with a
 * hint staff recognise it by. Issuing a new one replaces the old at once.
 */
export interface IssuedSecret {
  secret: string;
  sha256: string;
  hint: string;
  createdAt: Date;
}

const SECRET_BYTES = 32;

/** `…` and the last 4 characters: enough to tell two secrets apart, nothing to guess with. */
export const secretHint = (secret: string) => `…${secret.slice(-4)}`;

export function issueSecret(): IssuedSecret {
  const secret = randomHexToken(SECRET_BYTES);
  return { secret, sha256: sha256Hex(secret), hint: secretHint(secret), createdAt: new Date() };
}

/** Whether `given` is the secret of the stored digest, compared as digests in constant time (false without one). */
export function secretMatches(given: string | undefined, storedSha256: string | null): boolean {
  const expected = Buffer.from(storedSha256 ?? '', 'hex');
  const actual = Buffer.from(sha256Hex(given ?? ''), 'hex');
  // The given secret is always hashed and compared, so a hotel without a secret answers in the same time.
  const same = timingSafeEqual(actual, expected.length === actual.length ? expected : Buffer.alloc(actual.length));
  return same && given !== undefined && given !== '' && expected.length === actual.length;
}
