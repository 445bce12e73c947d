import type { Db } from '../db/knex';

export interface RateLimitSettings {
  windowSeconds: number;
  maxPerAccount: number;
  maxPerIp: number;
}

export interface RateLimiter {
  /** Counts one attempt; returns the seconds to wait when a limit is exceeded, otherwise undefined. */
  consume(scope: string, ip: string, account?: string): Promise<number | undefined>;
}

/** Fixed-window counters in PostgreSQL, so every API replica shares one budget per client. */
export function createRateLimiter(db: Db, settings: RateLimitSettings): RateLimiter {
  async function hit(key: string, max: number): Promise<number | undefined> {
    const { rows } = await db.raw<{ rows: { hits: number; retry_after: number }[] }>(
      `INSERT INTO rate_limit_counters AS c (key, window_started_at, hits) VALUES (?, now(), 1)
       ON CONFLICT (key) DO UPDATE SET
         hits = CASE WHEN c.window_started_at <= now() - make_interval(secs => ?) THEN 1 ELSE c.hits + 1 END,
         window_started_at = CASE WHEN c.window_started_at <= now() - make_interval(secs => ?)
           THEN now() ELSE c.window_started_at END
       RETURNING hits,
         ceil(extract(epoch FROM c.window_started_at + make_interval(secs => ?) - now()))::int AS retry_after`,
      [key, settings.windowSeconds, settings.windowSeconds, settings.windowSeconds],
    );
    const [{ hits, retry_after }] = rows;
    return hits > max ? Math.max(1, retry_after) : undefined;
  }

  return {
    async consume(scope, ip, account) {
      const perIp = await hit(`${scope}:ip:${ip}`, settings.maxPerIp);
      if (perIp !== undefined || account === undefined) return perIp;
      return hit(`${scope}:account:${ip}:${account}`, settings.maxPerAccount);
    },
  };
}

/** Counters whose window has closed are restarted on their next hit anyway; removing them loses nothing. */
export async function purgeClosedRateLimitWindows(db: Db, windowSeconds: number): Promise<number> {
  return db('rate_limit_counters')
    .where('window_started_at', '<', db.raw('now() - make_interval(secs => ?)', [windowSeconds]))
    .delete();
}
