import bcrypt from 'bcrypt';
import { ValidationError } from '../../platform/errors';

export const BCRYPT_COST = 12;
/** bcrypt reads only the first 72 bytes; longer passwords are refused rather than silently truncated. */
export const BCRYPT_MAX_BYTES = 72;

/** A cost-12 hash of a random secret nobody knows: unknown accounts spend the same time as wrong passwords. */
const TIMING_EQUALIZER_HASH = '$2b$12$CyvoGFF2nefWmrOSlina.uzqN3FoglnL/nLbOGF/zo/2EDIFT4nqa';

const LETTER = /[A-Za-zА-Яа-яЁё]/;

export const passwordMessages = {
  noLetter: 'Пароль должен содержать хотя бы одну букву',
  tooLong: `Пароль не должен быть длиннее ${BCRYPT_MAX_BYTES} байт`,
};

function fitsBcrypt(password: string): boolean {
  return Buffer.byteLength(password, 'utf8') <= BCRYPT_MAX_BYTES;
}

/** Rules for a new password beyond the schema's minimum length: the byte ceiling always, a letter where asked. */
export function assertAcceptablePassword(password: string, { requireLetter }: { requireLetter: boolean }): void {
  if (requireLetter && !LETTER.test(password)) throw new ValidationError(passwordMessages.noLetter);
  if (!fitsBcrypt(password)) throw new ValidationError(passwordMessages.tooLong);
}

export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, BCRYPT_COST);
}

/** Always runs one bcrypt comparison, whether or not there is a hash to compare with. */
export async function verifyPassword(password: string, hash: string | null | undefined): Promise<boolean> {
  const matches = await bcrypt.compare(password, hash ?? TIMING_EQUALIZER_HASH);
  return matches && Boolean(hash) && fitsBcrypt(password);
}
