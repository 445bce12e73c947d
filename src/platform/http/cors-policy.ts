import type { Request } from 'express';
import type { CorsOptions, CorsOptionsDelegate } from 'cors';

/** Headers a browser client may read besides the CORS-safelisted ones. */
const EXPOSED_HEADERS = [
  'ETag',
  'Location',
  'Link',
  'X-Next-Cursor',
  'Retry-After',
  'X-Request-Id',
  'RateLimit',
  'RateLimit-Policy',
];

/** Public routes under `<prefix><slug>/` whose allowed origins each hotel configures (e.g. the widget on its site). */
export interface HotelOrigins {
  prefix: string;
  originsOf(slug: string): Promise<string[]>;
}

/**
 * Who may call the API from a browser: the staff application (with its cookie) everywhere, and on a hotel's public
 * routes the origins that hotel configured (without credentials: those routes use none). Lists, not strings: cors
 * answers a string origin to every caller, a list only to a matching `Origin`.
 */
export function corsPolicy(appUrl: string, hotelOrigins: readonly HotelOrigins[]): CorsOptionsDelegate<Request> {
  const staff: CorsOptions = { origin: [appUrl], credentials: true, exposedHeaders: EXPOSED_HEADERS };
  return (req, callback) => {
    const path = req.path;
    const route = hotelOrigins.find(({ prefix }) => path.startsWith(prefix));
    if (!route) return callback(null, staff);
    let slug: string;
    try {
      slug = decodeURIComponent(path.slice(route.prefix.length).split('/')[0]);
    } catch {
      return callback(null, { origin: false });
    }
    route.originsOf(slug).then(
      (origins) => callback(null, { origin: origins, exposedHeaders: EXPOSED_HEADERS, maxAge: 600 }),
      (error: Error) => callback(error, { origin: false }),
    );
  };
}
