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

/** Public routes under `<prefix><slug>/` whose allowed origins each hotel configures (the widget on its site). */
export interface HotelOrigins {
  prefix: string;
  originsOf(slug: string): Promise<string[]>;
}

/**
 * Who may call the API from a browser: the staff application (with its cookie) everywhere, and on a hotel's public
 * routes the origins that hotel configured (without credentials: those routes use none). Lists, not strings: cors
 * answers a string origin to every caller, a list only to a matching `Origin`.
 */
export function corsPolicy(appUrl: string, hotelOrigins: HotelOrigins): CorsOptionsDelegate<Request> {
  const staff: CorsOptions = { origin: [appUrl], credentials: true, exposedHeaders: EXPOSED_HEADERS };
  return (req, callback) => {
    const path = req.path;
    if (!path.startsWith(hotelOrigins.prefix)) return callback(null, staff);
    let slug: string;
    try {
      slug = decodeURIComponent(path.slice(hotelOrigins.prefix.length).split('/')[0]);
    } catch {
      return callback(null, { origin: false });
    }
    hotelOrigins.originsOf(slug).then(
      (origins) => callback(null, { origin: origins, exposedHeaders: EXPOSED_HEADERS, maxAge: 600 }),
      (error: Error) => callback(error, { origin: false }),
    );
  };
}
