import { channexAriReads } from './channels.channex-reads';
import {
  ChannelError,
  type AvailabilityValue,
  type ChannelCredentials,
  type ChannelManager,
  type ChannelRatePlan,
  type ChannelRoomType,
  type PushResult,
  type RestrictionValue,
} from './channels.manager';
import { channexRevisions } from './channels.channex-revisions';

/** Channex's production API root (with its version); CHANNEX_API_URL points elsewhere (staging, the fake in tests). */
export const CHANNEX_API_URL = 'https://app.channex.io/api/v1';
/** Items per page when listing room types and rate plans, and the most pages read (a property, not a catalogue). */
const PAGE_LIMIT = 100;
const MAX_PAGES = 20;

export interface ChannexOptions {
  baseUrl: string;
  timeoutMs?: number;
  fetch?: typeof globalThis.fetch;
}

interface Resource {
  id: string;
  attributes?: Record<string, unknown>;
  relationships?: Record<string, { data?: { id?: string } | null }>;
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** One call to Channex's API under a connection's key: its JSON answer (`{}` when it has none), or a `ChannelError`. */
export type ChannexCall = (
  credentials: ChannelCredentials,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  body?: object,
) => Promise<Record<string, unknown>>;

/**
 * Calls to Channex: JSON over HTTPS with the `user-api-key` header. A 401/403 is a wrong key, a 404 an unknown
 * property (or record), a 429 the per-property limit, no answer or a 5xx the channel down.
 */
function channexCall({ baseUrl, timeoutMs = 15_000, fetch = globalThis.fetch }: ChannexOptions): ChannexCall {
  const root = baseUrl.replace(/\/$/, '');
  return async (credentials, method, path, body) => {
    const what = `${method} ${path.split('?')[0]}`;
    let response: Response;
    try {
      response = await fetch(`${root}${path}`, {
        method,
        headers: {
          'user-api-key': credentials.apiKey,
          accept: 'application/json',
          ...(body && { 'content-type': 'application/json' }),
        },
        body: body && JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
        redirect: 'error',
      });
    } catch (error) {
      throw new ChannelError('unavailable', `Channex did not answer ${what} (${(error as Error).name})`);
    }
    const answer = (await response.json().catch(() => null)) as Record<string, unknown> | null;
    if (response.ok) return answer ?? {};
    const status = response.status;
    if (status === 401 || status === 403) throw new ChannelError('unauthorized', 'Channex refused the API key', status);
    if (status === 404) throw new ChannelError('not_found', `Channex has nothing at ${what} (404)`, status);
    if (status === 429) {
      const retryAfter = Number(response.headers.get('retry-after'));
      throw new ChannelError('rate_limited', 'Channex: too many requests', status, retryAfter || undefined);
    }
    if (status >= 500) throw new ChannelError('unavailable', `Channex answered ${status} to ${what}`, status);
    throw new ChannelError('refused', `Channex refused the request (${status})`, status);
  };
}

/**
 * A list filtered by the connection's property, page after page (`limit` items a page, `most` pages at most), each
 * page's items read from its answer by `read`.
 */
export async function pages<T>(
  call: ChannexCall,
  credentials: ChannelCredentials,
  path: string,
  { limit, most }: { limit: number; most: number },
  read: (answer: Record<string, unknown>) => T[],
): Promise<T[]> {
  const items: T[] = [];
  for (let page = 1; page <= most; page += 1) {
    const query = new URLSearchParams({
      'filter[property_id]': credentials.propertyId,
      'pagination[page]': String(page),
      'pagination[limit]': String(limit),
    });
    const found = read(await call(credentials, 'GET', `${path}?${query}`));
    items.push(...found);
    if (found.length < limit) break;
  }
  return items;
}

/**
 * The Channex adapter, through its one `call`: the listing and the two ARI pushes here (a 200's `meta.warnings`, the
 * items it refused, come back with the result), the booking revisions in `channels.channex-revisions.ts`.
 */
export function createChannexManager(options: ChannexOptions): ChannelManager {
  const call = channexCall(options);

  const all = (credentials: ChannelCredentials, path: string) =>
    pages(call, credentials, path, { limit: PAGE_LIMIT, most: MAX_PAGES }, (answer) =>
      Array.isArray(answer.data) ? (answer.data as Resource[]) : [],
    );

  async function push(credentials: ChannelCredentials, path: string, values: object[]): Promise<PushResult> {
    if (values.length === 0) return { warnings: [] };
    const items = values.map((value) => ({ property_id: credentials.propertyId, ...value }));
    const answer = await call(credentials, 'POST', path, { values: items });
    const meta = answer.meta as { warnings?: unknown[] } | undefined;
    return { warnings: Array.isArray(meta?.warnings) ? meta.warnings : [] };
  }

  return {
    ...channexAriReads(call),
    async listing(credentials) {
      // The property first: an unknown one is named as such rather than answered as a property with nothing.
      await call(credentials, 'GET', `/properties/${encodeURIComponent(credentials.propertyId)}`);
      const [roomTypes, ratePlans] = await Promise.all([
        all(credentials, '/room_types'),
        all(credentials, '/rate_plans'),
      ]);
      return {
        roomTypes: roomTypes.map((item): ChannelRoomType => ({ id: item.id, title: text(item.attributes?.title) })),
        ratePlans: ratePlans.map((item): ChannelRatePlan => ({
          id: item.id,
          title: text(item.attributes?.title),
          room_type_id:
            text(item.attributes?.room_type_id) || (item.relationships?.room_type?.data?.id ?? null) || null,
        })),
      };
    },
    pushAvailability: (credentials, values: AvailabilityValue[]) => push(credentials, '/availability', values),
    pushRestrictions: (credentials, values: RestrictionValue[]) => push(credentials, '/restrictions', values),
    ...channexRevisions(call),
  };
}
