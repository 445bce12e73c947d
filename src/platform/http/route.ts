import type { Request, Response } from 'express';
import type Joi from 'joi';
import type { AccessTokenPayload } from './access-token';
import type { ExpectedVersion } from './concurrency';
import { declaresIdempotencyKey, idempotencyKeyHeader } from './idempotency-key';
import type { AddressQuota } from './rate-limit';
import type { Role } from './roles';

/**
 * Who may call a route. `hotel` routes live under `/api/hotels/:slug`: the caller must belong to that hotel
 * (or be super_admin) and hold one of the roles. A token opens a route only while its account is active and has
 * not revoked its sessions since; `closedAccountsToo` lets an inactive or deleted account's still-signed token in
 * (for `/api/auth/me`, which answers `null` then).
 */
export type Access =
  | { kind: 'public' }
  | { kind: 'authenticated'; closedAccountsToo?: boolean }
  | { kind: 'hotel'; roles: readonly Role[] };

/** Who calls a public route without a token, as the audit log records it (`audit-route.ts`). */
export type PublicCaller = 'guest' | 'agent' | 'provider' | 'visitor';

/** The tenant a hotel route resolved to. */
export interface HotelRef {
  id: string;
  slug: string;
}

export interface ResponseSpec {
  description: string;
  schema?: Joi.Schema;
  /** Headers the answer carries, by name, with what they hold (a redirect's `Location`, a page's `Link`). */
  headers?: Record<string, string>;
  /** A body that is not JSON: the media types it may have (an image); with `schema`, JSON is one of them too. */
  media?: string[];
}

export interface RouteContext<Body, Query, Params> {
  body: Body;
  query: Query;
  params: Params;
  /** The declared request headers, validated (`request.headers`); empty when none are declared. */
  headers: Record<string, string | undefined>;
  /** Set on every route whose access is not public. */
  auth: AccessTokenPayload | undefined;
  /** Set on every hotel route. */
  hotel: HotelRef | undefined;
  /** What `If-Match` accepts, on the writes of a route with `concurrency`; undefined without the header. */
  expectedVersion: ExpectedVersion | undefined;
  req: Request;
  res: Response;
}

export interface RateLimitPolicy {
  scope: string;
  /** Body field that names the account (counted per client address and account as well as per address). */
  accountField?: string;
  /** The route's own budget per client address (default: the configured `RATE_LIMIT_*` one). */
  perAddress?: AddressQuota;
  /**
   * A request header naming the caller (a provider's token): counted per its value (hashed) instead of per address,
   * for a provider that calls from addresses it shares with its other clients.
   */
  keyHeader?: string;
  /**
   * `local`: counted in this process, no database write (hot public reads); `shared` (default): in PostgreSQL, one
   * budget across every API replica (writes, lookups, sign-ins).
   */
  store?: 'shared' | 'local';
}

/**
 * A `multipart/form-data` body carrying one file in `field`. The handler reads the request stream itself;
 * mount does not parse or validate such a body (a route declares either `body` or `multipart`, not both).
 */
export interface MultipartSpec {
  field: string;
  description: string;
}

/** A public route's one refusal of a caller it does not accept: see `RouteDefinition.oneAnswer`. */
export interface OneAnswer {
  /** What a wrong credential gets, and so a malformed one too. */
  refusal: () => Error;
  /** Where the credentials are: `params`, `headers`, or one field (`body.hotel`, `query.token`). */
  inputs: readonly string[];
}

export interface RouteDefinition<Body = unknown, Query = unknown, Params = unknown> {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** Express path, e.g. `/api/hotels/:slug/users/:id`. */
  path: string;
  summary: string;
  description?: string;
  tags: string[];
  access: Access;
  /**
   * `if-match`: the route reads or writes one record whose `updated_at` is its version. Its answers carrying the
   * record get the version as `ETag`; its writes accept `If-Match` (passed on as `expectedVersion`), refused with 412
   * when the record has changed since.
   */
  concurrency?: 'if-match';
  rateLimit?: RateLimitPolicy;
  /**
   * A public route's one answer to a caller it does not accept (a guest's or a device's credential, a hotel's slug): a
   * malformed value in its `inputs` (too long, another alphabet, a NUL byte, empty or missing) gets the same refusal
   * as a wrong one, never a 400 that tells the two apart, and is looked up nowhere.
   */
  oneAnswer?: OneAnswer;
  /**
   * A POST that answers 201 creates something, so a retry over a flaky network must not create it twice: it accepts
   * `Idempotency-Key` (`idempotency-key.ts`). A hotel route that does not declare the header itself gets it from
   * `defineRoute` with `'mount'`: mount keeps the key (per hotel and route) and answers a retry with the first answer.
   * A route that declares the header passes it to its service, which claims it in the transaction of its work.
   * `{ none }` opts out, saying why a replay makes no sense there; the contract gate lists the routes that do.
   */
  idempotency?: 'mount' | { none: string };
  /**
   * A route that changes something is recorded in the audit log (`audit-route.ts`): each row it changes, with its
   * operationId and caller, or one entry naming the operation when it changed no audited row. `{ none }` opts a
   * POST out that changes nothing (a computation), saying why; OpenAPI shows it as `x-audit`.
   */
  audit?: { none: string };
  /**
   * Who calls this public route without a token, as the audit log records its changes (the actor's kind, with the
   * route's tag as `via`): a `guest` (the default: the widget, a room-service code, the TV system, the portal), a
   * desk's `agent`, a `provider`'s notification, a `visitor` signing up or in. OpenAPI shows it in `x-audit`.
   */
  caller?: PublicCaller;
  request?: {
    body?: Joi.ObjectSchema;
    query?: Joi.ObjectSchema;
    params?: Joi.ObjectSchema;
    /** Request headers the route reads (lower-case names), validated like the rest and documented. */
    headers?: Joi.ObjectSchema;
    multipart?: MultipartSpec;
  };
  responses: Record<number, ResponseSpec>;
  handler(ctx: RouteContext<Body, Query, Params>): Promise<void>;
}

/** `get /api/hotels/:slug/rooms/:id` → `getHotelsBySlugRoomsById`, the route's operationId in OpenAPI. */
export function operationIdOf(route: Pick<RouteDefinition, 'method' | 'path'>): string {
  const words = route.path
    .replace(/:(\w+)/g, '{$1}')
    .split('/')
    .filter((segment) => segment && segment !== 'api')
    .map((segment) => segment.replace(/^\{(\w+)\}$/, 'by-$1'))
    .flatMap((segment) => segment.split(/[-_]/))
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1));
  return route.method + words.join('');
}

/** Whether a changing route is recorded in the audit log, as OpenAPI's `x-audit` says. */
export function auditOf(
  route: Pick<RouteDefinition, 'audit' | 'access' | 'caller'>,
): { records: true; caller?: PublicCaller } | { none: string } {
  if (route.audit) return route.audit;
  return { records: true, ...(route.access.kind === 'public' && { caller: route.caller ?? 'guest' }) };
}

/** A creating POST's default: the `Idempotency-Key` header, kept by mount unless the route reads it or opts out. */
function withIdempotencyKey(route: RouteDefinition): RouteDefinition {
  const creating = route.method === 'post' && route.responses[201] !== undefined;
  if (!creating || route.idempotency || declaresIdempotencyKey(route.request?.headers)) return route;
  if (route.access.kind !== 'hotel' || route.request?.multipart)
    throw new Error(
      `${route.path}: a creating POST outside a hotel or with a streamed body reads or opts out of its key`,
    );
  const headers = route.request?.headers?.concat(idempotencyKeyHeader) ?? idempotencyKeyHeader;
  return { ...route, idempotency: 'mount', request: { ...route.request, headers } };
}

/** Keeps the handler's context typed while the route list stays homogeneous. */
export function defineRoute<Body = unknown, Query = unknown, Params = unknown>(
  route: RouteDefinition<Body, Query, Params>,
): RouteDefinition {
  if (route.caller && route.access.kind !== 'public')
    throw new Error(`${route.path}: only a public route declares its caller (others are called with a token)`);
  return withIdempotencyKey(route as unknown as RouteDefinition);
}

/** The context of a hotel route: mount has resolved the caller and the hotel before the handler runs. */
export interface HotelRouteContext<Body, Query, Params> extends RouteContext<Body, Query, Params> {
  auth: AccessTokenPayload;
  hotel: HotelRef;
}

export interface HotelRouteDefinition<Body, Query, Params> extends Omit<
  RouteDefinition<Body, Query, Params>,
  'access' | 'handler'
> {
  access: Extract<Access, { kind: 'hotel' }>;
  handler(ctx: HotelRouteContext<Body, Query, Params>): Promise<void>;
}

/** A route under `/api/hotels/:slug`, whose handler gets the signed-in member and their hotel, never undefined. */
export function defineHotelRoute<Body = unknown, Query = unknown, Params = unknown>(
  route: HotelRouteDefinition<Body, Query, Params>,
): RouteDefinition {
  return defineRoute(route as unknown as RouteDefinition);
}
