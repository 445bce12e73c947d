import { createSecretKey, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { Role } from './roles';

/**
 * The token payload of the spec (`hotelId`/`hotelSlug` are null only for super_admin), plus `sv`: the account's
 * session version when the token was issued, so a revocation (which bumps it) voids every older token.
 */
export interface AccessTokenPayload {
  sub: string;
  email: string;
  name: string;
  role: Role;
  hotelId: string | null;
  hotelSlug: string | null;
  sv: number;
}

export function signAccessToken(payload: AccessTokenPayload, secret: string, ttlSeconds: number): string {
  return jwt.sign({ ...payload }, secret, { algorithm: 'HS256', expiresIn: ttlSeconds });
}

const verificationKeys = new Map<string, KeyObject>();

/**
 * The secret as a key object, made once: given the string, jsonwebtoken first tries to read it as a public key on
 * every call, which cost a sixth of the API's CPU per request.
 */
function verificationKey(secret: string): KeyObject {
  let key = verificationKeys.get(secret);
  if (!key) {
    key = createSecretKey(Buffer.from(secret));
    verificationKeys.set(secret, key);
  }
  return key;
}

/** Returns the payload of a valid, unexpired HS256 token, or undefined for anything else. */
export function verifyAccessToken(token: string, secret: string): AccessTokenPayload | undefined {
  try {
    const decoded = jwt.verify(token, verificationKey(secret), { algorithms: ['HS256'] });
    if (typeof decoded !== 'object' || typeof decoded.sub !== 'string') return undefined;
    const { sub, email, name, role, hotelId, hotelSlug, sv } = decoded as AccessTokenPayload;
    return { sub, email, name, role, hotelId: hotelId ?? null, hotelSlug: hotelSlug ?? null, sv: Number(sv ?? 0) };
  } catch {
    return undefined;
  }
}
