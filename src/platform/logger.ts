import pino, { type DestinationStream, type Logger } from 'pino';
import { requestLogFields } from './observability/request-context';

export type { Logger };

/** `json` (one object a line, for log collectors) or `pretty` (coloured lines for a person at a terminal). */
export type LogFormat = 'json' | 'pretty';

export interface LoggerOptions {
  format?: LogFormat;
  /** Where JSON lines go instead of stdout (tests read them). */
  destination?: DestinationStream;
}

/** Secrets and personal documents never reach the logs, whatever object carries them. */
const redactedPaths = [
  'password',
  '*.password',
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.token',
  '*.access_token',
  '*.passport_number',
  '*.passport_series',
  '*.passport_issued_by',
  '*.passport_issue_date',
  'passport_number',
  'passport_series',
  'passport_issued_by',
  'passport_issue_date',
  // A guest's name and contacts (docs/decisions/retention.md): an erasure cannot reach lines already written.
  ...['last_name', 'first_name', 'middle_name', 'phone', 'email', 'birth_date'].flatMap((field) => [
    field,
    `*.${field}`,
    `guest_${field}`,
    `*.guest_${field}`,
  ]),
];

const REDACTED = '[redacted]';

/** A guest's name, contacts and documents, by the field names the service gives them. */
const PERSONAL_FIELDS = new Set(
  [
    ...['last_name', 'first_name', 'middle_name', 'phone', 'email', 'birth_date'].flatMap((f) => [f, `guest_${f}`]),
    ...['passport_number', 'passport_series', 'passport_issued_by', 'passport_issue_date'],
    ...['guest_name', 'phone_normalized', 'search_name', 'emailorphone', 'document_number'],
  ].map((field) => field.toLowerCase()),
);

/** How deep a logged object is searched for personal fields (`*.field` paths reach one level only). */
const REDACT_DEPTH = 8;

/**
 * A logged object with every personal field replaced by `[redacted]`, however deeply nested in plain objects and
 * arrays (a booking's guest inside an error's details, an event's payload); other objects (a request, an error
 * instance) are left to their serializers.
 */
export function redactPersonal(value: unknown, depth = 0): unknown {
  if (depth > REDACT_DEPTH || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => redactPersonal(item, depth + 1));
  if (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [
      key,
      PERSONAL_FIELDS.has(key.toLowerCase()) && item !== null && item !== undefined
        ? REDACTED
        : redactPersonal(item, depth + 1),
    ]),
  );
}

/**
 * Query parameters never logged as they came: secrets a caller could only put in a URL (the TV system's poll, OAuth
 * returns), and a guest's contact or name (the widget's lookup by phone or e-mail, the staff's guest search).
 */
const SECRET_QUERY_PARAMETERS = new Set([
  ...['token', 'access_token', 'code'],
  ...['phone', 'email', 'q', 'search', 'name', 'query', 'contact'],
  ...PERSONAL_FIELDS,
]);

/** A path segment that is a secret: a review link's token (`/api/review-links/{token}`; routes match any case). */
const SECRET_PATH_SEGMENT = /(\/review-links\/)[^/?#]+/gi;

/** A query parameter's name as the query parser reads it (`tok%65n`, `token[]` are `token`). */
function parameterName(rawName: string): string {
  let name = rawName.replace(/\+/g, ' ');
  try {
    name = decodeURIComponent(name);
  } catch {
    // Malformed escapes: the parser keeps the name as it is, and so does this.
  }
  return name.replace(/\[.*$/, '').toLowerCase();
}

/** A URL as the logs show it: secrets and personal data in its path and query replaced by `[redacted]`. */
export function redactUrl(url: string): string {
  const queryAt = url.indexOf('?');
  const path = (queryAt < 0 ? url : url.slice(0, queryAt)).replace(SECRET_PATH_SEGMENT, `$1${REDACTED}`);
  if (queryAt < 0) return path;
  const query = url
    .slice(queryAt + 1)
    .split('&')
    .map((pair) => {
      const rawName = pair.split('=', 1)[0];
      return SECRET_QUERY_PARAMETERS.has(parameterName(rawName)) ? `${rawName}=${REDACTED}` : pair;
    })
    .join('&');
  return `${path}?${query}`;
}

/** The fields of pino's serialized request that may carry a URL. */
interface SerializedRequest {
  url?: string;
  query?: unknown;
  params?: unknown;
  headers?: Record<string, unknown>;
}

/**
 * The request as its log lines show it (pino-http binds it once per request: the completed line and every error
 * logged through `req.log`): the URL and the Referer (a page's own address may hold a link's token) redacted, and
 * without pino's separate `query` and `params`, which would repeat the URL's secrets as they came; the headers routes
 * declare as credentials (`credentialHeader`) show `[redacted]`.
 */
export function loggedRequest<T extends SerializedRequest>(
  { query: _query, params: _params, ...req }: T,
  credentialHeaders: ReadonlySet<string> = new Set(),
) {
  const referer = req.headers?.referer;
  const headers = req.headers && {
    ...req.headers,
    ...(typeof referer === 'string' && { referer: redactUrl(referer) }),
    ...Object.fromEntries(
      Object.keys(req.headers)
        .filter((name) => credentialHeaders.has(name.toLowerCase()))
        .map((name) => [name, REDACTED]),
    ),
  };
  return {
    ...req,
    ...(typeof req.url === 'string' && { url: redactUrl(req.url) }),
    ...(headers && { headers }),
  };
}

/**
 * Every line logged during a request carries its `reqId`, `userId` and `hotelId` (see request-context.ts), whichever
 * logger writes it. `pretty` needs pino-pretty, a development dependency: `npm run dev` asks for it.
 */
export function createLogger(level: string, name: string, options: LoggerOptions = {}): Logger {
  const settings = {
    name,
    level,
    redact: { paths: redactedPaths, censor: '[redacted]' },
    formatters: { log: (object: Record<string, unknown>) => redactPersonal(object) as Record<string, unknown> },
    mixin: requestLogFields,
    ...(options.format === 'pretty' && {
      transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' } },
    }),
  };
  return options.destination ? pino(settings, options.destination) : pino(settings);
}
