import { createHash } from 'node:crypto';
import type { Db } from '../db/knex';

export interface RateLimitSettings {
  windowSeconds: number;
  maxPerAccount: number;
  maxPerIp: number;
}

/** A quota of attempts per window, named as in the `RateLimit` and `RateLimit-Policy` headers. */
export interface QuotaPolicy {
  name: 'per-address' | 'per-account';
  quota: number;
  windowSeconds: number;
}

/** What is left of a policy's quota after an attempt. */
export interface QuotaState {
  policy: QuotaPolicy['name'];
  remaining: number;
  resetSeconds: number;
}

export interface RateLimitDecision {
  /** Every policy the route applies to this client, whether or not this attempt reached it. */
  policies: QuotaPolicy[];
  /** The policies this attempt was counted against. */
  states: QuotaState[];
  /** Set when a quota is exceeded: the seconds to wait. */
  retryAfterSeconds?: number;
}

/** A route's own budget per client address, instead of the configured one. */
export interface AddressQuota {
  quota: number;
  windowSeconds: number;
}

export interface RateLimiter {
  /** Counts one attempt per client address and, when given, per address and account. */
  consume(scope: string, ip: string, account?: string, perAddress?: AddressQuota): Promise<RateLimitDecision>;
}

/**
 * The shared limiter, and a way to give an attempt back: for a budget spent only by failures (wrong guesses). Each
 * attempt is counted before it is judged, so parallel attempts cannot all pass a check made before any is counted, and
 * one that turns out right is given back.
 */
export interface SharedRateLimiter extends RateLimiter {
  /** Takes one attempt off `ip`'s count of `scope` (per address, as `consume` counted it), never below zero. */
  giveBack(scope: string, ip: string): Promise<void>;
}

/** Accounts are counted under a digest: the counters hold no e-mail, and an unvalidated one has a bounded size. */
function digest(account: string): string {
  return createHash('sha256').update(account).digest('base64url');
}

const addressKey = (scope: string, ip: string) => `${scope}:ip:${ip}`;

/** Fixed-window counters in PostgreSQL, so every API replica shares one budget per client. */
export function createRateLimiter(db: Db, settings: RateLimitSettings): SharedRateLimiter {
  const perAddress: QuotaPolicy = {
    name: 'per-address',
    quota: settings.maxPerIp,
    windowSeconds: settings.windowSeconds,
  };
  const perAccount: QuotaPolicy = { ...perAddress, name: 'per-account', quota: settings.maxPerAccount };

  async function hit(key: string, policy: QuotaPolicy): Promise<{ state: QuotaState; exceeded: boolean }> {
    const { windowSeconds } = policy;
    const { rows } = await db.raw<{ rows: { hits: number; retry_after: number }[] }>(
      `INSERT INTO rate_limit_counters AS c (key, window_started_at, hits, window_seconds) VALUES (?, now(), 1, ?)
       ON CONFLICT (key) DO UPDATE SET
         window_seconds = EXCLUDED.window_seconds,
         hits = CASE WHEN c.window_started_at <= now() - make_interval(secs => ?) THEN 1 ELSE c.hits + 1 END,
         window_started_at = CASE WHEN c.window_started_at <= now() - make_interval(secs => ?)
           THEN now() ELSE c.window_started_at END
       RETURNING hits,
         ceil(extract(epoch FROM c.window_started_at + make_interval(secs => ?) - now()))::int AS retry_after`,
      [key, windowSeconds, windowSeconds, windowSeconds, windowSeconds],
    );
    const [{ hits, retry_after }] = rows;
    return {
      state: {
        policy: policy.name,
        remaining: Math.max(0, policy.quota - hits),
        resetSeconds: Math.max(1, retry_after),
      },
      exceeded: hits > policy.quota,
    };
  }

  return {
    async giveBack(scope, ip) {
      await db('rate_limit_counters')
        .where({ key: addressKey(scope, ip) })
        .update({ hits: db.raw('greatest(hits - 1, 0)') });
    },

    async consume(scope, ip, account, own) {
      const addressPolicy = own ? { ...perAddress, ...own } : perAddress;
      const policies = account === undefined ? [addressPolicy] : [addressPolicy, perAccount];
      const address = await hit(addressKey(scope, ip), addressPolicy);
      // An address over its quota is refused before its account is counted.
      const accountHit =
        address.exceeded || account === undefined
          ? undefined
          : await hit(`${scope}:account:${ip}:${digest(account)}`, perAccount);
      const states = accountHit ? [address.state, accountHit.state] : [address.state];
      const refused = [address, accountHit].find((counted) => counted?.exceeded);
      return { policies, states, ...(refused && { retryAfterSeconds: refused.state.resetSeconds }) };
    },
  };
}

const MAX_LOCAL_COUNTERS = 100_000;

/**
 * Fixed-window counters per client address in this process's memory, for hot public reads where a write per request
 * would cost more than the read: each API replica keeps its own budget (a client spread over N replicas gets up to N
 * times the quota), which is what such a limit is for (keeping one address from flooding a replica).
 */
export function createLocalRateLimiter(defaults: AddressQuota): RateLimiter {
  const counters = new Map<string, { startedAt: number; hits: number }>();
  function forgetClosedWindows(now: number, windowMs: number) {
    for (const [key, counter] of counters) if (now - counter.startedAt >= windowMs) counters.delete(key);
    // Still full (a flood of distinct addresses): drop the oldest; they start over, the flood does not grow memory.
    for (const key of counters.keys()) {
      if (counters.size < MAX_LOCAL_COUNTERS) break;
      counters.delete(key);
    }
  }
  return {
    async consume(scope, ip, _account, own) {
      const policy: QuotaPolicy = { name: 'per-address', ...(own ?? defaults) };
      const windowMs = policy.windowSeconds * 1000;
      const now = Date.now();
      const key = `${scope}:${ip}`;
      let counter = counters.get(key);
      if (!counter || now - counter.startedAt >= windowMs) {
        if (counters.size >= MAX_LOCAL_COUNTERS) forgetClosedWindows(now, windowMs);
        counter = { startedAt: now, hits: 0 };
        counters.set(key, counter);
      }
      counter.hits += 1;
      const resetSeconds = Math.max(1, Math.ceil((counter.startedAt + windowMs - now) / 1000));
      const state: QuotaState = {
        policy: policy.name,
        remaining: Math.max(0, policy.quota - counter.hits),
        resetSeconds,
      };
      return {
        policies: [policy],
        states: [state],
        ...(counter.hits > policy.quota && { retryAfterSeconds: resetSeconds }),
      };
    },
  };
}

/** The `RateLimit-Policy` and `RateLimit` headers of draft-ietf-httpapi-ratelimit-headers (version 11). */
export function rateLimitHeaders(decision: RateLimitDecision): Record<string, string> {
  return {
    'RateLimit-Policy': decision.policies
      .map((policy) => `"${policy.name}";q=${policy.quota};w=${policy.windowSeconds}`)
      .join(', '),
    RateLimit: decision.states
      .map((state) => `"${state.policy}";r=${state.remaining};t=${state.resetSeconds}`)
      .join(', '),
  };
}

/**
 * Counters whose own window has closed are restarted on their next hit anyway; removing them loses nothing. A counter
 * without a recorded window (written before windows were) has the configured one.
 */
export async function purgeClosedRateLimitWindows(db: Db, windowSeconds: number): Promise<number> {
  return db('rate_limit_counters')
    .where(
      'window_started_at',
      '<',
      db.raw('now() - make_interval(secs => coalesce(window_seconds, ?))', [windowSeconds]),
    )
    .delete();
}
