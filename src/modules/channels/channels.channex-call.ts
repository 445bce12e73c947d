import type { ChannelCredentials } from './channels.credentials';
import { ChannelError } from './channels.manager';

/** Channex's production API root (with its version); CHANNEX_API_URL points elsewhere (staging, the fake in tests). */
export const CHANNEX_API_URL = 'https://app.channex.io/api/v1';

export interface ChannexOptions {
  baseUrl: string;
  timeoutMs?: number;
  fetch?: typeof globalThis.fetch;
}

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
export function channexCall({ baseUrl, timeoutMs = 15_000, fetch = globalThis.fetch }: ChannexOptions): ChannexCall {
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
