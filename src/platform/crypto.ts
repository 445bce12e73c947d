import { createHash, randomBytes } from 'node:crypto';

/** A random token written as hex: 32 bytes give the spec's 64 characters, 40 bytes its 80. */
export function randomHexToken(bytes: number): string {
  return randomBytes(bytes).toString('hex');
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}
