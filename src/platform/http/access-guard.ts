import type { PgListener } from '../db/pg-listener';
import type { AccessTokenPayload } from './access-token';

/** What decides whether an account's access tokens still open anything. */
export interface AccountAccess {
  active: boolean;
  /** Bumped by every revocation; a token carrying an older one is refused. */
  sessionVersion: number;
}

/** `ok`, or why a validly signed token opens nothing. */
export type AccessVerdict = 'ok' | 'inactive' | 'gone' | 'revoked';

export interface AccessGuard {
  verdict(token: AccessTokenPayload): Promise<AccessVerdict>;
  /** Called with the user id whenever that account's access may have been taken away (to close its sockets). */
  onChange(listener: (userId: string) => void): () => void;
  close(): void;
}

/**
 * The channel the users table notifies when `active` or `session_version` change (`{ id, active, sessionVersion }`)
 * or an account is deleted (`{ id, deleted: true }`).
 */
export const ACCOUNT_ACCESS_CHANNEL = 'account_access';

function parseChange(payload: string): { id: string; access: AccountAccess | null } | undefined {
  try {
    const change = JSON.parse(payload) as {
      id?: unknown;
      deleted?: boolean;
      active?: boolean;
      sessionVersion?: number;
    };
    if (typeof change.id !== 'string') return undefined;
    if (change.deleted) return { id: change.id, access: null };
    return { id: change.id, access: { active: Boolean(change.active), sessionVersion: Number(change.sessionVersion) } };
  } catch {
    return undefined;
  }
}

const MAX_CACHED_ACCOUNTS = 50_000;

/**
 * Checks every access token against its account: active, and not older than the account's last revocation. The
 * facts are cached per process and dropped on the account's notification, so the hot path costs no query; while the
 * LISTEN connection is down (a notification could be missed) nothing is trusted from the cache.
 */
export function createAccessGuard(options: {
  listener: PgListener;
  load(userId: string): Promise<AccountAccess | undefined>;
}): AccessGuard {
  const { listener, load } = options;
  const cache = new Map<string, AccountAccess | null>();
  const changeListeners = new Set<(userId: string) => void>();
  // A load that raced with an invalidation must not put stale facts back into the cache.
  let invalidations = 0;

  function forgetAll(): void {
    invalidations += 1;
    cache.clear();
  }

  const unsubscribe = listener.subscribe(ACCOUNT_ACCESS_CHANNEL, {
    onNotification(payload) {
      const change = parseChange(payload);
      if (!change) return;
      invalidations += 1;
      cache.delete(change.id);
      if (cache.size < MAX_CACHED_ACCOUNTS) cache.set(change.id, change.access);
      for (const notify of changeListeners) notify(change.id);
    },
    onListening: forgetAll,
    onLost: forgetAll,
  });

  async function accessOf(userId: string): Promise<AccountAccess | null> {
    const cached = cache.get(userId);
    if (cached !== undefined && listener.isListening()) return cached;
    const before = invalidations;
    const access = (await load(userId)) ?? null;
    if (before === invalidations && listener.isListening()) {
      if (cache.size >= MAX_CACHED_ACCOUNTS) cache.delete(cache.keys().next().value!);
      cache.set(userId, access);
    }
    return access;
  }

  return {
    async verdict(token) {
      const access = await accessOf(token.sub);
      if (!access) return 'gone';
      if (!access.active) return 'inactive';
      return token.sv === access.sessionVersion ? 'ok' : 'revoked';
    },
    onChange(notify) {
      changeListeners.add(notify);
      return () => changeListeners.delete(notify);
    },
    close() {
      unsubscribe();
      changeListeners.clear();
      cache.clear();
    },
  };
}
