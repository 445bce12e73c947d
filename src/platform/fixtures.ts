import type { Db } from './db/knex';

/**
 * How a module seeds one of each of its records for the quality gates (the cross-hotel sweep aims another hotel's
 * requests at them) and how requests address them. Declared beside the module (`<area>.fixtures.ts`), referenced by
 * its `fixtures` field; the gates build their fixture from the modules they run on. Nothing in the application calls
 * a seed.
 */
export interface ModuleFixtures<Service = unknown> {
  /** Record kinds other modules seed that this seed uses (the gates seed those first). */
  needs?: readonly string[];
  /** The kinds of record it seeds (or owns), each with where requests name one. */
  records: Readonly<Record<string, RecordAddress>>;
  /** Makes one of each of its records in a fresh hotel, every text field carrying the canary; their ids by kind. */
  seed?(hotel: FixtureHotel, service: Service): Promise<Record<string, string>>;
  /**
   * Requests of its routes that the cross-hotel sweep cannot derive from their joi schemas, by `METHOD /path`: every
   * body with an id field, and queries where `{}` plus one id field is not valid.
   */
  requests?: { body?: Readonly<Record<string, RequestTemplate>>; query?: Readonly<Record<string, RequestTemplate>> };
}

/** A request of the calling hotel built from its own records (by kind); `n` makes each call unique. */
export type RequestBuilder = (own: Readonly<Record<string, string>>, n: number) => Record<string, unknown>;

/** A variant whose request with the caller's own ids cannot succeed (it collides with the caller's own seed). */
export interface UncontrolledVariant {
  build: RequestBuilder;
  uncontrolled: string;
}

export interface RequestTemplate {
  /** A minimal valid request. */
  base: RequestBuilder;
  /** Requests to carry one id field (its own value is then replaced by the other hotel's), when `base` is not it. */
  variants?: Record<string, RequestBuilder | UncontrolledVariant | (RequestBuilder | UncontrolledVariant)[]>;
  /** The request with the caller's own ids succeeds (2xx): checked once per variant, after the cross-hotel ones. */
  control?: boolean;
}

export interface RecordAddress {
  /** Route paths up to and including the parameter that names one (`/api/hotels/:slug/rooms/:id`). */
  paths?: readonly string[];
  /**
   * Body and query fields that name one: a field name (`room_id`, `photos`), or `METHOD /path field` where a name
   * means another kind on one route (`POST /api/hotels/:slug/chat/typing room_id`).
   */
  fields?: readonly string[];
}

export interface FixtureRequest {
  /** Default `post`. */
  method?: 'get' | 'post' | 'put' | 'patch' | 'delete';
  body?: object;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  /** A file sent as the multipart field `file`. */
  file?: { name: string; contentType: string; content: Buffer };
  /** The status it must answer (default 201 for a POST, else 200). */
  status?: number;
  /** Sent without the owner's token. */
  anonymous?: boolean;
}

/** The hotel being seeded, as the gate hands it to each module's seed. */
export interface FixtureHotel {
  hotelId: string;
  slug: string;
  /** The owner's user id. */
  ownerId: string;
  /** Lower-case letters and digits that every text field of the hotel's records carries. */
  canary: string;
  /** The ids of the records seeded so far, by kind (those named in `needs` among them). */
  records: Readonly<Record<string, string>>;
  /** A request as the owner to `/api/hotels/<slug><path>` (or to `path` when it starts with `/api/`): its body. */
  request<T = Record<string, unknown>>(path: string, options?: FixtureRequest): Promise<T>;
  /** For the rows no route makes (what a workflow or the guest's link would write). */
  db: Db;
  /**
   * The stack's stand-ins for outside systems, by name: `ttlock` registers an account on the lock cloud, `channex`
   * opens a property (`id`, `api_key`, room types and their rate plans) at the channel manager.
   */
  outside: Readonly<Record<string, (data: object) => Promise<unknown>>>;
  /** A day of the hotel's calendar (`YYYY-MM-DD`), `offset` days from today. */
  localDay(offset: number): string;
}

/** A calendar day `offset` days from `base`, far in the future, so seeded stays and prices never meet today's rules. */
export function day(offset: number, base = '2031-03-01'): string {
  return new Date(Date.parse(`${base}T00:00:00Z`) + offset * 86_400_000).toISOString().slice(0, 10);
}
