import type Joi from 'joi';
import type { RouteDefinition } from './route';

/**
 * A request header that carries a credential (a stay code, an order's token, a portal secret), declared once where
 * its route declares it (`request.headers`): the request log never shows its value, on any route.
 */
export function credentialHeader<T extends Joi.Schema>(schema: T): T {
  return schema.meta({ credential: true }) as T;
}

interface HeaderDescription {
  metas?: Record<string, unknown>[];
}

/** The headers a route's schema declares, each with whether it carries a credential. */
export function declaredHeaders(route: RouteDefinition): { name: string; credential: boolean }[] {
  const keys = (route.request?.headers?.describe() as { keys?: Record<string, HeaderDescription> } | undefined)?.keys;
  return Object.entries(keys ?? {}).map(([name, description]) => ({
    name: name.toLowerCase(),
    credential: (description.metas ?? []).some((meta) => meta.credential === true),
  }));
}

/** Every credential header the routes declare, for the request log to redact. */
export function credentialHeaderNames(routes: readonly RouteDefinition[]): ReadonlySet<string> {
  return new Set(
    routes.flatMap((route) =>
      declaredHeaders(route)
        .filter((header) => header.credential)
        .map((header) => header.name),
    ),
  );
}
