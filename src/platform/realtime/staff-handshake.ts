import type { IncomingMessage } from 'node:http';
import jwt from 'jsonwebtoken';
import { ForbiddenError, UnauthorizedError, ValidationError, type AppError } from '../errors';
import type { AccessGuard } from '../http/access-guard';
import { verifyAccessToken, type AccessTokenPayload } from '../http/access-token';
import type { HotelRef } from '../http/route';
import { foreignHotelMessage, mayAccessHotel } from '../http/tenancy';

/** Who opened a staff socket, for which hotel, and from where in its event stream. */
export interface StaffHandshake {
  hotelId: string;
  token: AccessTokenPayload;
  /** When the handshake's token expires (ms since the epoch). */
  expiresAt?: number;
  /** `?since=`: the id of the last event the client has, when it reconnects. */
  since?: number;
}

export interface StaffHandshakeOptions {
  accessGuard: AccessGuard;
  jwtSecret: string;
  /** How a `?hotel=<slug>` is resolved (the hotels module's look-up). */
  findHotelBySlug: (slug: string) => Promise<HotelRef | undefined>;
}

/** The only subprotocol is the token carrier; choosing it tells the browser the handshake was understood. */
export const chooseBearer = (protocols: Set<string>) => (protocols.has('bearer') ? 'bearer' : false);

function tokenOf(req: IncomingMessage, url: URL): string | undefined {
  const fromQuery = url.searchParams.get('token');
  if (fromQuery) return fromQuery;
  const header = req.headers['sec-websocket-protocol'];
  if (typeof header !== 'string') return undefined;
  const protocols = header.split(',').map((protocol) => protocol.trim());
  const index = protocols.indexOf('bearer');
  return index >= 0 ? protocols[index + 1] || undefined : undefined;
}

function expiresAtMs(token: string): number | undefined {
  const decoded = jwt.decode(token);
  return decoded && typeof decoded === 'object' && typeof decoded.exp === 'number' ? decoded.exp * 1000 : undefined;
}

/**
 * The staff channel's handshake: the access token (`?token=` or the `bearer` subprotocol pair) of an account that
 * still has access, the hotel (its own, or `?hotel=<slug>` it may open) and `?since=`; else the refusal.
 */
export function staffHandshake(options: StaffHandshakeOptions) {
  const { accessGuard, jwtSecret, findHotelBySlug } = options;
  return async (req: IncomingMessage): Promise<AppError | StaffHandshake> => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const token = tokenOf(req, url);
    const auth = token ? verifyAccessToken(token, jwtSecret) : undefined;
    if (!token || !auth || (await accessGuard.verdict(auth)) !== 'ok') {
      return new UnauthorizedError();
    }
    const slug = url.searchParams.get('hotel');
    let hotelId = auth.hotelId;
    if (slug) {
      const hotel = await findHotelBySlug(slug);
      if (!mayAccessHotel(auth, hotel)) return new ForbiddenError(foreignHotelMessage, 'foreign_hotel');
      hotelId = hotel.id;
    }
    if (!hotelId) return new ValidationError('Укажите отель: ?hotel=<slug>');
    const sinceParam = url.searchParams.get('since');
    if (sinceParam !== null && !/^\d{1,15}$/.test(sinceParam)) {
      return new ValidationError('since — номер последнего полученного события');
    }
    const since = sinceParam === null ? undefined : Number(sinceParam);
    return { hotelId, token: auth, expiresAt: expiresAtMs(token), since };
  };
}
