import { randomInt } from 'node:crypto';

/** Letters and digits nobody misreads when typing from a screen: no 0/O, 1/I/L. */
export const PAIR_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const PAIR_CODE_LENGTH = 8;

/** 31^8 ≈ 8.5·10^11 codes, each living 10 minutes, behind a per-address rate limit: not worth guessing. */
export function newPairCode(): string {
  const character = () => PAIR_CODE_ALPHABET[randomInt(PAIR_CODE_ALPHABET.length)];
  return Array.from({ length: PAIR_CODE_LENGTH }, character).join('');
}
