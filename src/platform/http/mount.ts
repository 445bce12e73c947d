import type { Request, Response, Router } from 'express';
import type Joi from 'joi';
import type { Knex } from 'knex';
import { runAsActor } from '../db/audit-context';
import { idempotentOutside } from '../db/idempotency';
import { ForbiddenError, RateLimitedError, UnauthorizedError, ValidationError } from '../errors';
import { bindToRequest } from '../observability/request-context';
import type { AccessGuard } from './access-guard';
import { auditContextOf, recordRequest } from './audit-route';
import { parseIfMatch, tagAnswerWithVersion, type ExpectedVersion } from './concurrency';
import type { HotelBulkhead } from './hotel-bulkhead';
import { verifyAccessToken, type AccessTokenPayload } from './access-token';
import { rateLimitHeaders, type RateLimiter } from './rate-limit';
import type { Access, HotelRef, OneAnswer, RouteDefinition } from './route';
import { HOTEL_SLUG_PATTERN } from './schemas';
import { foreignHotelMessage, mayAccessHotel } from './tenancy';
import { validate } from './validate';
import { sha256Hex } from '../crypto';

export interface MountDependencies {
  jwtSecret: string;
  accessGuard: AccessGuard;
  rateLimiter: RateLimiter;
  /** Counts in this process only, for routes whose policy says `store: 'local'`. */
  localRateLimiter: RateLimiter;
  hotelBulkhead: HotelBulkhead;
  /** The lanes of the hotels' public routes (the widget), narrower, beside their staff's. */
  publicBulkhead: HotelBulkhead;
  /** Where mount keeps the `Idempotency-Key` of the creating routes that leave it to mount. */
  db: Knex;
  findHotelBySlug(slug: string): Promise<HotelRef | undefined>;
}

function bearerToken(req: Request): string | undefined {
  const header = req.headers.authorization;
  if (!header) return undefined;
  const [scheme, token] = header.split(' ');
  return scheme?.toLowerCase() === 'bearer' && token ? token : undefined;
}

/** A signed, unexpired token of an account that is active and has not revoked its sessions since it was issued. */
async function authenticate(req: Request, access: Access, deps: MountDependencies): Promise<AccessTokenPayload> {
  const token = bearerToken(req);
  const payload = token ? verifyAccessToken(token, deps.jwtSecret) : undefined;
  if (!payload) throw new UnauthorizedError();
  const verdict = await deps.accessGuard.verdict(payload);
  const closedAccountLetIn = access.kind === 'authenticated' && access.closedAccountsToo && verdict !== 'revoked';
  if (verdict !== 'ok' && !closedAccountLetIn) throw new UnauthorizedError();
  bindToRequest({ userId: payload.sub });
  return payload;
}

/**
 * Tenant resolution: a hotel that does not exist and a hotel that is not the caller's answer the same 403,
 * so slugs cannot be probed. A slug of a shape no hotel can have (a NUL byte, 10 kB) is that 403 too, without
 * reaching the database.
 */
async function resolveHotel(req: Request, auth: AccessTokenPayload, deps: MountDependencies): Promise<HotelRef> {
  const slug = String(req.params.slug);
  const hotel = HOTEL_SLUG_PATTERN.test(slug) ? await deps.findHotelBySlug(slug) : undefined;
  if (!mayAccessHotel(auth, hotel)) throw new ForbiddenError(foreignHotelMessage, 'foreign_hotel');
  bindToRequest({ hotelId: hotel.id });
  return hotel;
}

/**
 * The hotel a public route names by `:slug` (the widget's), looked up only to put the request in that hotel's public
 * lane: 30 guests booking at once would otherwise take the whole pool from the other hotels. The handler still answers
 * an unknown slug its own way.
 */
async function publicRouteHotel(req: Request, deps: MountDependencies): Promise<HotelRef | undefined> {
  const slug = req.params.slug;
  return typeof slug === 'string' && HOTEL_SLUG_PATTERN.test(slug) ? deps.findHotelBySlug(slug) : undefined;
}

/** A validation that fails on a credential of a route with one answer gets that answer instead of the 400. */
function validateCredentials<T>(oneAnswer: OneAnswer | undefined, run: () => T): T {
  try {
    return run();
  } catch (error) {
    const onCredential = (path: string) =>
      oneAnswer?.inputs.some((input) => path === input || path.startsWith(`${input}.`));
    if (error instanceof ValidationError && error.details.some((detail) => onCredential(detail.path)))
      throw oneAnswer!.refusal();
    throw error;
  }
}

/**
 * Runs a creating route's handler once per `Idempotency-Key`: its JSON answer of a success is held back, kept with
 * the key, then sent; a retry with the key and the same params and body gets that answer again without running the
 * handler, one with another body a 422.
 */
async function oncePerKey(
  db: Knex,
  request: { hotelId: string; scope: string; key: string; body: unknown },
  res: Response,
  handle: () => Promise<void>,
): Promise<void> {
  const send = res.json.bind(res);
  const kept = await idempotentOutside(db, request, async () => {
    let answer: { status: number; body: unknown } | undefined;
    res.json = (body: unknown) => {
      if (res.statusCode >= 300) return send(body);
      answer = { status: res.statusCode, body };
      return res;
    };
    try {
      await handle();
    } finally {
      res.json = send;
    }
    return answer;
  });
  if (kept) res.status(kept.status).json(kept.body);
}

export function mountRoutes(router: Router, routes: RouteDefinition[], deps: MountDependencies): void {
  for (const route of routes) {
    router[route.method](route.path, async (req, res) => {
      const access = route.access;
      const auth = access.kind === 'public' ? undefined : await authenticate(req, access, deps);
      let hotel: HotelRef | undefined;
      if (access.kind === 'hotel' && auth) {
        hotel = await resolveHotel(req, auth, deps);
        if (auth.role !== 'super_admin' && !access.roles.includes(auth.role)) throw new ForbiddenError();
      }
      if (route.rateLimit) {
        // Counted before validation, so a malformed attempt spends quota too (one naming no account under the empty
        // one) and every answer carries the headers.
        const { scope, accountField, perAddress, store, keyHeader } = route.rateLimit;
        const named = accountField ? (req.body as Record<string, unknown> | undefined)?.[accountField] : undefined;
        const account = accountField ? (typeof named === 'string' ? named.trim().toLowerCase() : '') : undefined;
        const limiter = store === 'local' ? deps.localRateLimiter : deps.rateLimiter;
        const caller = keyHeader ? `key:${sha256Hex(String(req.headers[keyHeader] ?? ''))}` : (req.ip ?? 'unknown');
        const decision = await limiter.consume(scope, caller, account, perAddress);
        res.set(rateLimitHeaders(decision));
        if (decision.retryAfterSeconds !== undefined) throw new RateLimitedError(decision.retryAfterSeconds);
      }
      const schemas = route.request ?? {};
      const checked = <T>(schema: Joi.Schema, value: unknown, location: Parameters<typeof validate>[2]) =>
        validateCredentials<T>(route.oneAnswer, () => validate<T>(schema, value, location));
      const params = schemas.params ? checked(schemas.params, req.params, 'params') : req.params;
      const query = schemas.query ? checked(schemas.query, req.query, 'query') : req.query;
      const headers = schemas.headers ? checked<Record<string, string>>(schemas.headers, req.headers, 'headers') : {};
      // A multipart body is still unread here: the handler streams it.
      const body = schemas.multipart
        ? undefined
        : schemas.body
          ? checked<Record<string, unknown>>(schemas.body, req.body, 'body')
          : req.body;
      let expectedVersion: ExpectedVersion | undefined;
      if (route.concurrency) {
        if (route.method !== 'get') expectedVersion = parseIfMatch(req.get('if-match'));
        tagAnswerWithVersion(res);
      }
      const handler = () => route.handler({ body, query, params, headers, auth, hotel, expectedVersion, req, res });
      const audit = auditContextOf(route, req, auth);
      const run = audit ? () => runAsActor(audit, handler) : handler;
      const key = route.idempotency === 'mount' ? headers['idempotency-key'] : undefined;
      const scope = `${route.method} ${route.path}`;
      const handle =
        hotel && key
          ? () => oncePerKey(deps.db, { hotelId: hotel.id, scope, key, body: { params, body } }, res, run)
          : run;
      const guestsOf = access.kind === 'public' ? await publicRouteHotel(req, deps) : undefined;
      if (hotel) await deps.hotelBulkhead.run(hotel.id, handle);
      else if (guestsOf) await deps.publicBulkhead.run(guestsOf.id, handle);
      else await handle();
      const recordedHotel = hotel ?? guestsOf;
      if (audit && recordedHotel) await recordRequest(deps.db, recordedHotel.id, audit, res);
    });
  }
}
