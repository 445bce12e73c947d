import type { Request, Router } from 'express';
import { ForbiddenError, RateLimitedError, UnauthorizedError } from '../errors';
import { verifyAccessToken, type AccessTokenPayload } from './access-token';
import type { RateLimiter } from './rate-limit';
import type { HotelRef, RouteDefinition } from './route';
import { foreignHotelMessage, mayAccessHotel } from './tenancy';
import { validate } from './validate';

export interface MountDependencies {
  jwtSecret: string;
  rateLimiter: RateLimiter;
  findHotelBySlug(slug: string): Promise<HotelRef | undefined>;
}

function bearerToken(req: Request): string | undefined {
  const header = req.headers.authorization;
  if (!header) return undefined;
  const [scheme, token] = header.split(' ');
  return scheme?.toLowerCase() === 'bearer' && token ? token : undefined;
}

function authenticate(req: Request, jwtSecret: string): AccessTokenPayload {
  const token = bearerToken(req);
  const payload = token ? verifyAccessToken(token, jwtSecret) : undefined;
  if (!payload) throw new UnauthorizedError();
  return payload;
}

/**
 * Tenant resolution: a hotel that does not exist and a hotel that is not the caller's answer the same 403,
 * so slugs cannot be probed.
 */
async function resolveHotel(req: Request, auth: AccessTokenPayload, deps: MountDependencies): Promise<HotelRef> {
  const hotel = await deps.findHotelBySlug(String(req.params.slug));
  if (!mayAccessHotel(auth, hotel)) throw new ForbiddenError(foreignHotelMessage, 'foreign_hotel');
  req.log = req.log.child({ hotelId: hotel.id });
  return hotel;
}

export function mountRoutes(router: Router, routes: RouteDefinition[], deps: MountDependencies): void {
  for (const route of routes) {
    router[route.method](route.path, async (req, res) => {
      const access = route.access;
      const auth = access.kind === 'public' ? undefined : authenticate(req, deps.jwtSecret);
      let hotel: HotelRef | undefined;
      if (access.kind === 'hotel' && auth) {
        hotel = await resolveHotel(req, auth, deps);
        if (auth.role !== 'super_admin' && !access.roles.includes(auth.role)) throw new ForbiddenError();
      }
      const schemas = route.request ?? {};
      const params = schemas.params ? validate(schemas.params, req.params, 'params') : req.params;
      const query = schemas.query ? validate(schemas.query, req.query, 'query') : req.query;
      // A multipart body is still unread here: the handler streams it.
      const body = schemas.multipart
        ? undefined
        : schemas.body
          ? validate<Record<string, unknown>>(schemas.body, req.body, 'body')
          : req.body;
      if (route.rateLimit) {
        const account = route.rateLimit.accountField ? body?.[route.rateLimit.accountField] : undefined;
        const retryAfter = await deps.rateLimiter.consume(
          route.rateLimit.scope,
          req.ip ?? 'unknown',
          typeof account === 'string' ? account.trim().toLowerCase() : undefined,
        );
        if (retryAfter !== undefined) throw new RateLimitedError(retryAfter);
      }
      await route.handler({ body, query, params, auth, hotel, req, res });
    });
  }
}
