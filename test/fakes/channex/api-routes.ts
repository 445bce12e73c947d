import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { applyAri, type AriKind } from './ari';
import { readAri } from './ari-read';
import { paginate, propertyResource, ratePlanResource, roomTypeResource } from './catalogue';
import { badRequest, notFound, serverError, tooManyRequests, unauthorized, validationError } from './errors';
import { newId, RATE_LIMIT_PER_MINUTE, type CallKind, type FakeChannexState, type Fault, type Property } from './state';
import type { Bookings } from './bookings';

const WINDOW_MS = 60_000;

/** Channex API v1, mounted at /api/v1: the `user-api-key` header, JSON:API-like answers. */
export function apiRoutes(state: FakeChannexState, bookings: Bookings): Router {
  const router = express.Router();
  router.use(authenticate(state));
  router.use(express.json({ limit: '10mb', type: () => true }));
  const calls = new Calls(state);

  router.get('/properties/:id', (request, response) => {
    const property = calls.guard(response, 'property', [opened(state, response, idOf(request))]);
    response.json({ data: propertyResource(property) });
  });
  router.get('/room_types', (request, response) => {
    const property = calls.guard(response, 'room_types', [filtered(state, request, response)]);
    const { items, meta } = paginate(request, [...property.roomTypes.values()]);
    response.json({ data: items.map(roomTypeResource), meta });
  });
  router.get('/rate_plans', (request, response) => {
    const property = calls.guard(response, 'rate_plans', [filtered(state, request, response)]);
    const { items, meta } = paginate(request, [...property.ratePlans.values()]);
    response.json({ data: items.map(ratePlanResource), meta });
  });
  for (const kind of ['availability', 'restrictions'] as const) {
    router.get(`/${kind}`, (request, response) => {
      const property = calls.guard(response, `${kind}_read`, [filtered(state, request, response, badRequest)]);
      response.json({ data: readAri(kind, request, property) });
    });
    router.post(`/${kind}`, (request, response) => {
      response.json(calls.ari(response, kind, request.body));
    });
  }
  bookings.routes(router, calls);
  router.use(() => {
    throw notFound();
  });
  return router;
}

/** The properties the request's API key opens; an unknown key is 401. */
export function keyProperties(response: Response): Set<string> {
  return response.locals.properties as Set<string>;
}

function authenticate(state: FakeChannexState) {
  return (request: Request, response: Response, next: NextFunction) => {
    const apiKey = request.get('user-api-key') ?? '';
    const properties = state.keys.get(apiKey);
    if (!properties) throw unauthorized();
    response.locals.properties = properties;
    response.locals.apiKey = apiKey;
    next();
  };
}

/** The property if the key opens it; 404 otherwise (another user's property is not shown to exist). */
export function opened(state: FakeChannexState, response: Response, id: string): Property {
  const property = keyProperties(response).has(id) ? state.property(id) : undefined;
  if (!property) throw notFound();
  return property;
}

/** The property of `filter[property_id]`; without one, the read is refused (422, or the ARI reads' 400). */
function filtered(
  state: FakeChannexState,
  request: Request,
  response: Response,
  refuse: (details: string[]) => Error = () => validationError({ 'filter[property_id]': ['is required'] }),
): Property {
  const id = request.query['filter[property_id]'];
  if (typeof id !== 'string') throw refuse(['filter[property_id]: is required']);
  return opened(state, response, id);
}

function idOf(request: Request): string {
  return (request.params as { id: string }).id;
}

/**
 * Every call is logged on the properties it touches; forced faults and the per-property ARI limits act here
 * (10 calls a minute per kind per property, on the property's clock). An ARI call none of whose values names a
 * property of the key is limited and logged on the key's own (10 a minute per kind, on the real clock).
 */
/** A forced fault as Channex answers it: a refusal of the request (400, 422), its limit (429) or an outage. */
function faultError({ status, retryAfter }: Fault) {
  if (status === 400) return badRequest(['forced fault']);
  if (status === 422) return validationError({ values: ['forced fault'] });
  return status === 429 ? tooManyRequests(retryAfter) : serverError(status);
}

export class Calls {
  constructor(private readonly state: FakeChannexState) {}

  /** Takes the properties' forced faults for this kind of call and logs the call; answers the first property. */
  guard(response: Response, kind: CallKind, properties: Property[], values: number[] = []): Property {
    for (const property of properties) {
      const fault = this.state.takeFault(property, kind);
      if (fault !== undefined) {
        this.log(properties, kind, fault.status, values);
        throw faultError(fault);
      }
    }
    response.once('finish', () => this.log(properties, kind, response.statusCode, values, response.locals.warnings));
    return properties[0];
  }

  /** Applies an ARI call: `data` holds one task per property a value was applied to (none if all were refused). */
  ari(response: Response, kind: AriKind, body: unknown) {
    const values = valuesOf(body);
    const opened = keyProperties(response);
    const ids = [...new Set(values.map((value) => value.property_id))].filter(
      (id): id is string => typeof id === 'string' && opened.has(id) && this.state.properties.has(id),
    );
    if (ids.length === 0) return this.unplaced(response, kind, values);
    const properties = ids.map((id) => this.state.property(id)!);
    const counts = ids.map((id) => values.filter((value) => value.property_id === id).length);
    if (properties.some((property) => !withinLimit(property.rateWindow[kind], this.state.now(property), property))) {
      this.log(properties, kind, 429, counts);
      throw tooManyRequests();
    }
    this.guard(response, kind, properties, counts);
    for (const property of properties) property.rateWindow[kind].push(this.state.now(property));
    const { warnings, applied } = applyAri(this.state, kind, values, opened);
    // A refused value is counted on its property, one that names no property of the key on the first.
    response.locals.warnings = ids.map(
      (id, index) =>
        warnings.filter(
          (warning) => warning.property_id === id || (index === 0 && !ids.includes(warning.property_id as string)),
        ).length,
    );
    return ariAnswer(applied, warnings);
  }

  /** Every value names a property the key does not open: each refused, the call counted against the key. */
  private unplaced(response: Response, kind: AriKind, values: Record<string, unknown>[]) {
    const log = this.state.keyLog(response.locals.apiKey as string);
    const now = Date.now();
    const record = (status: number, warnings = 0) =>
      log.calls.push({ kind, at: new Date(now).toISOString(), values: values.length, status, warnings });
    if (!withinLimit(log.rateWindow[kind], now, { rateLimitPerMinute: RATE_LIMIT_PER_MINUTE })) {
      record(429);
      throw tooManyRequests();
    }
    log.rateWindow[kind].push(now);
    const { warnings, applied } = applyAri(this.state, kind, values, keyProperties(response));
    record(200, warnings.length);
    return ariAnswer(applied, warnings);
  }

  private log(properties: Property[], kind: CallKind, status: number, values: number[], warnings: number[] = []) {
    properties.forEach((property, index) => {
      const at = new Date(this.state.now(property)).toISOString();
      property.calls.push({ kind, at, values: values[index] ?? 0, status, warnings: warnings[index] ?? 0 });
    });
  }
}

/** Drops the window's calls older than a minute (in place); answers whether another fits in the limit. */
function withinLimit(window: number[], now: number, { rateLimitPerMinute }: { rateLimitPerMinute: number }) {
  while (window.length > 0 && window[0] <= now - WINDOW_MS) window.shift();
  return window.length < rateLimitPerMinute;
}

function ariAnswer(applied: Set<string>, warnings: unknown[]) {
  return {
    data: [...applied].map((propertyId) => ({ id: newId(), type: 'task', attributes: { property_id: propertyId } })),
    meta: { message: 'Success', warnings },
  };
}

/** `{ values: [object, ...] }`, else the whole call is refused with 422. */
function valuesOf(body: unknown): Record<string, unknown>[] {
  const values = (body as { values?: unknown } | null)?.values;
  if (typeof body !== 'object' || body === null || Array.isArray(body) || !Array.isArray(values)) {
    throw validationError({ values: ['is required and must be a list'] });
  }
  if (values.length === 0) throw validationError({ values: ['must not be empty'] });
  if (!values.every((value) => typeof value === 'object' && value !== null && !Array.isArray(value))) {
    throw validationError({ values: ['must be a list of objects'] });
  }
  return values as Record<string, unknown>[];
}
