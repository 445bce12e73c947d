import { createHash } from 'node:crypto';
import { toHotelInfo, toLockDetail, toLockPage, toToken } from './answers';
import { TTLockError, ttlockRefusal, ttlockUnavailable } from './errors';
import type {
  TTLockApiServer,
  TTLockCredentials,
  TTLockHotelInfo,
  TTLockLock,
  TTLockLockDetail,
  TTLockLockFilter,
  TTLockPage,
  TTLockPageRequest,
  TTLockPasswordGrant,
  TTLockRefreshGrant,
  TTLockToken,
} from './types';

/**
 * The documented API hosts (https://euopen.ttlock.com/document-pages/en/cloud/oauth2/getAccessToken for the EU one;
 * errcode 30008 sends mainland Chinese accounts to the "cn" one).
 */
export const TTLOCK_API_HOSTS: Record<TTLockApiServer, string> = {
  EU: 'https://euapi.ttlock.com',
  China: 'https://cnapi.ttlock.com',
};

export const TTLOCK_MAX_PAGE_SIZE = 1000;
/** allLocks stops here: a bigger account is more likely a paging fault than a hotel. */
export const TTLOCK_MAX_PAGES = 100;

export interface TTLockClientOptions {
  /** The API root of each cloud; TTLOCK_API_HOSTS unless given (a fake's URL in tests). */
  baseUrlFor?: (apiServer: TTLockApiServer) => string;
  /** One call's limit, answer body included. */
  timeoutMs?: number;
  fetch?: typeof globalThis.fetch;
}

export interface TTLockClient {
  getToken(grant: TTLockPasswordGrant): Promise<TTLockToken & { uid: number }>;
  refreshToken(grant: TTLockRefreshGrant): Promise<TTLockToken>;
  listLocks(credentials: TTLockCredentials, page: TTLockPageRequest): Promise<TTLockPage<TTLockLock>>;
  /** Every lock the account administers, page by page (TTLOCK_MAX_PAGES at most). */
  allLocks(credentials: TTLockCredentials, filter?: TTLockLockFilter & { pageSize?: number }): Promise<TTLockLock[]>;
  lockDetail(credentials: TTLockCredentials, lockId: number): Promise<TTLockLockDetail>;
  /** The account's hotel for writing cards with an encoder; only for an account that created a hotel in TTLock. */
  getHotelInfo(credentials: TTLockCredentials): Promise<TTLockHotelInfo>;
}

type Params = Record<string, string | number | undefined>;
type Fields = Record<string, unknown>;

export function createTTLockClient({
  baseUrlFor = (apiServer) => TTLOCK_API_HOSTS[apiServer],
  timeoutMs = 10_000,
  fetch = globalThis.fetch,
}: TTLockClientOptions = {}): TTLockClient {
  /**
   * Every call is a form-encoded POST, as documented: the secret, the password hash and the tokens travel in the body,
   * never in a URL that proxies and logs keep.
   */
  async function post(apiServer: TTLockApiServer, path: string, params: Params): Promise<Fields> {
    const form = new URLSearchParams();
    for (const [name, value] of Object.entries(params)) if (value !== undefined) form.append(name, String(value));
    const signal = AbortSignal.timeout(timeoutMs);
    let status: number;
    let text: string;
    try {
      const response = await fetch(`${baseUrlFor(apiServer).replace(/\/+$/, '')}${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
        body: form,
        signal,
      });
      status = response.status;
      text = await response.text();
    } catch (error) {
      throw ttlockUnavailable(
        path,
        signal.aborted ? `no answer within ${timeoutMs} ms` : 'network failure',
        undefined,
        error,
      );
    }
    return interpret(path, status, text);
  }

  const call = (credentials: TTLockCredentials, path: string, params: Params) =>
    post(credentials.apiServer, path, {
      clientId: credentials.clientId,
      accessToken: credentials.accessToken,
      date: Date.now(),
      ...params,
    });

  async function token(apiServer: TTLockApiServer, params: Params): Promise<TTLockToken> {
    const path = '/oauth2/token';
    const parsed = toToken(await post(apiServer, path, params), Date.now());
    if (!parsed) throw ttlockUnavailable(path, 'the answer holds no token');
    return parsed;
  }

  async function listLocks(credentials: TTLockCredentials, { pageNo, pageSize, ...filter }: TTLockPageRequest) {
    if (!Number.isInteger(pageNo) || pageNo < 1 || !Number.isInteger(pageSize) || pageSize < 1) {
      throw new RangeError('TTLock pages are numbered from 1 and hold at least one lock');
    }
    if (pageSize > TTLOCK_MAX_PAGE_SIZE) throw new RangeError(`A TTLock page holds at most ${TTLOCK_MAX_PAGE_SIZE}`);
    const path = '/v3/lock/list';
    const page = toLockPage(await call(credentials, path, { pageNo, pageSize, ...filter }));
    if (!page) throw ttlockUnavailable(path, 'the answer is not a page of locks');
    return page;
  }

  return {
    async getToken({ apiServer, clientId, clientSecret, username, password }) {
      const granted = await token(apiServer, { clientId, clientSecret, username, password: md5(password) });
      if (granted.uid === undefined) throw ttlockUnavailable('/oauth2/token', 'the answer holds no uid');
      return granted as TTLockToken & { uid: number };
    },
    refreshToken: ({ apiServer, clientId, clientSecret, refreshToken }) =>
      token(apiServer, { clientId, clientSecret, grant_type: 'refresh_token', refresh_token: refreshToken }),
    listLocks,
    async allLocks(credentials, { pageSize = TTLOCK_MAX_PAGE_SIZE, ...filter } = {}) {
      // Keyed by id: a lock added while paging shifts the pages, and one lock could come twice.
      const locks = new Map<number, TTLockLock>();
      for (let pageNo = 1; pageNo <= TTLOCK_MAX_PAGES; pageNo++) {
        const page = await listLocks(credentials, { pageNo, pageSize, ...filter });
        for (const lock of page.list) locks.set(lock.lockId, lock);
        if (pageNo >= page.pages || page.list.length === 0) return [...locks.values()];
      }
      // A part of the list would pass for all of it, and rooms would lose their locks.
      throw new TTLockError(
        `В аккаунте TTLock больше ${TTLOCK_MAX_PAGES} страниц замков по ${pageSize}: список не загружен`,
        { retryable: false },
      );
    },
    async lockDetail(credentials, lockId) {
      const path = '/v3/lock/detail';
      const detail = toLockDetail(await call(credentials, path, { lockId }));
      if (!detail) throw ttlockUnavailable(path, 'the answer is not a lock');
      return detail;
    },
    async getHotelInfo(credentials) {
      const path = '/v3/cardEncoder/getHotelInfo';
      const receivedAt = Date.now();
      const info = toHotelInfo(await call(credentials, path, {}), receivedAt);
      if (!info) throw ttlockUnavailable(path, 'the answer holds no hotelInfo');
      return info;
    },
  };
}

/** TTLock wants the password as its MD5, 32 lower-case hex digits. */
function md5(password: string): string {
  return createHash('md5').update(password, 'utf8').digest('hex');
}

/** TTLock refuses with HTTP 200 and a non-zero errcode as often as with an HTTP error. */
function interpret(path: string, status: number, text: string): Fields {
  const body = parseObject(text);
  if (status >= 500) throw ttlockUnavailable(path, `HTTP ${status}`, status);
  const errcode = body?.errcode;
  if (typeof errcode === 'number' && errcode !== 0) {
    throw ttlockRefusal(path, errcode, typeof body?.errmsg === 'string' ? body.errmsg : undefined, status);
  }
  if (status === 429) throw ttlockUnavailable(path, 'HTTP 429', status);
  if (status < 200 || status >= 300) {
    throw new TTLockError(`TTLock отклонил запрос (TTLock ${path}: HTTP ${status})`, { status, retryable: false });
  }
  if (!body) throw ttlockUnavailable(path, 'the answer is not JSON', status);
  return body;
}

function parseObject(text: string): Fields | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Fields) : undefined;
  } catch {
    return undefined;
  }
}
