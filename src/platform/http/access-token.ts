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

/** Returns the payload of a valid, unexpired HS256 token, or undefined for anything else. */
export function verifyAccessToken(token: string, secret: string): AccessTokenPayload | undefined {
  try {
    const decoded = jwt.verify(token, secret, { algorithms: ['HS256'] });
    if (typeof decoded !== 'object' || typeof decoded.sub !== 'string') return undefined;
    const { sub, email, name, role, hotelId, hotelSlug, sv } = decoded as AccessTokenPayload;
    return { sub, email, name, role, hotelId: hotelId ?? null, hotelSlug: hotelSlug ?? null, sv: Number(sv ?? 0) };
  } catch {
    return undefined;
  }
}
