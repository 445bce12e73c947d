import type { Request } from 'express';

/**
 * The path pattern of the route that answered (`/api/hotels/:slug/bookings/:id`), never the URL itself: metrics
 * labels and span names stay few and carry no slugs or ids. `unmatched` when no route took the request (a 404).
 */
export function routeTemplate(req: Request): string {
  const path: unknown = req.route?.path;
  return typeof path === 'string' ? req.baseUrl + path : 'unmatched';
}
