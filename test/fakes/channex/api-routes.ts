import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { applyAri, type AriKind } from './ari';
import { paginate, propertyResource, ratePlanResource, roomTypeResource } from './catalogue';
import { notFound, serverError, tooManyRequests, unauthorized, validationError } from './errors';
import { newId, type CallKind, type FakeChannexState, type Property } from './state';
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
    const properties = state.keys.get(request.get('user-api-key') ?? '');
    if (!properties) throw unauthorized();
    response.locals.properties = properties;
    next();
  };
}

/** The property if the key opens it; 404 otherwise (another user's property is not shown to exist). */
export function opened(state: FakeChannexState, response: Response, id: string): Property {
  const property = keyProperties(response).has(id) ? state.property(id) : undefined;
  if (!property) throw notFound();
  return property;
}

function filtered(state: FakeChannexState, request: Request, response: Response): Property {
  const id = request.query['filter[property_id]'];
  if (typeof id !== 'string') throw validationError({ 'filter[property_id]': ['is required'] });
  return opened(state, response, id);
}

function idOf(request: Request): string {
  return (request.params as { id: string }).id;
}

/**
 * Every call is logged on the properties it touches; forced faults and the per-property ARI limits act here
 * (10 calls a minute per kind per property, on the property's clock).
 */
export class Calls {
  constructor(private readonly state: FakeChannexState) {}

  /** Takes the properties' forced faults and logs the call; answers the first property. */
  guard(response: Response, kind: CallKind, properties: Property[], values: number[] = []): Property {
    for (const property of properties) {
      const fault = this.state.takeFault(property);
      if (fault !== undefined) {
        this.log(properties, kind, fault, values);
        throw fault === 429 ? tooManyRequests() : serverError(fault);
      }
    }
    response.once('finish', () => this.log(properties, kind, response.statusCode, values, response.locals.warnings));
    return properties[0];
  }

  ari(response: Response, kind: AriKind, body: unknown) {
    const values = valuesOf(body);
    const opened = keyProperties(response);
    const ids = [...new Set(values.map((value) => value.property_id))].filter(
      (id): id is string => typeof id === 'string' && opened.has(id) && this.state.properties.has(id),
    );
    const properties = ids.map((id) => this.state.property(id)!);
    const counts = ids.map((id) => values.filter((value) => value.property_id === id).length);
    const limited = properties.some((property) => !this.withinLimit(property, kind));
    if (limited) {
      this.log(properties, kind, 429, counts);
      throw tooManyRequests();
    }
    this.guard(response, kind, properties, counts);
    for (const property of properties) property.rateWindow[kind].push(this.state.now(property));
    const warnings = applyAri(this.state, kind, values, opened);
    response.locals.warnings = warnings.length;
    return { data: [{ id: newId(), type: 'task' }], meta: { message: 'Success', warnings } };
  }

  private withinLimit(property: Property, kind: AriKind): boolean {
    const since = this.state.now(property) - WINDOW_MS;
    property.rateWindow[kind] = property.rateWindow[kind].filter((at) => at > since);
    return property.rateWindow[kind].length < property.rateLimitPerMinute;
  }

  private log(properties: Property[], kind: CallKind, status: number, values: number[], warnings = 0): void {
    properties.forEach((property, index) => {
      const at = new Date(this.state.now(property)).toISOString();
      property.calls.push({ kind, at, values: values[index] ?? 0, status, warnings: index === 0 ? warnings : 0 });
    });
  }
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
