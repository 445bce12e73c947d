import knex, { type Knex } from 'knex';
import path from 'node:path';
import pg from 'pg';
import type { DbLimits, PlatformConfig } from '../config';
import type { Logger } from '../logger';
import { recordActors } from './audit-context';

// Calendar dates stay `YYYY-MM-DD` strings: parsing them into Date objects would shift them by the process time zone.
pg.types.setTypeParser(pg.types.builtins.DATE, (value: string) => value);

export type Db = Knex;
/** A repository accepts either the pool or an open transaction, so services decide what commits together. */
export type DbOrTrx = Knex | Knex.Transaction;

/**
 * Who connects: the API (short limits, so a held lock turns into a quick 503 instead of a queue), the worker (longer:
 * sweeps and activities may do more, and retry), or migrations and maintenance scripts (no limits of ours: an index
 * build or a backfill takes as long as it takes).
 */
export type DbRole = (
  { role: 'api' | 'worker'; poolMax: number; limits: DbLimits } | { role: 'migrations'; poolMax: number }
) & { logger?: Logger };

const MIGRATIONS_ACQUIRE_TIMEOUT_MS = 60_000;

/** node-postgres sends these in the start-up packet (knex's type lacks `lock_timeout`, pg's own type has it). */
type SessionSettings = Knex.PgConnectionConfig & Pick<pg.ClientConfig, 'lock_timeout'>;

function sessionSettings(role: DbRole): SessionSettings {
  // The name shows in pg_stat_activity, so an operator sees which process holds what.
  const applicationName = `hotel-pms-${role.role}`;
  if (role.role === 'migrations') return { application_name: applicationName };
  return {
    application_name: applicationName,
    statement_timeout: role.limits.statementTimeoutMs,
    lock_timeout: role.limits.lockTimeoutMs,
    idle_in_transaction_session_timeout: role.limits.idleInTransactionTimeoutMs,
  };
}

/** knex's own warnings (a connection it could not acquire, a deprecation) go to our log instead of the console. */
function knexLog(logger: Logger): Knex.Logger {
  return {
    debug: (message: unknown) => logger.debug({ knex: message }, 'knex'),
    warn: (message: unknown) => logger.warn({ knex: message }, 'knex'),
    error: (message: unknown) => logger.error({ knex: message }, 'knex'),
    deprecate: (method: string, alternative: string) => logger.warn({ method, alternative }, 'knex: deprecated'),
  };
}

/** The connection pool of one process; `poolMax` is per process (each API replica and each worker has its own). */
export function createDb(databaseUrl: string, role: DbRole): Db {
  return knex({
    client: 'pg',
    connection: { connectionString: databaseUrl, ...sessionSettings(role) },
    pool: { min: 0, max: role.poolMax },
    acquireConnectionTimeout: role.role === 'migrations' ? MIGRATIONS_ACQUIRE_TIMEOUT_MS : role.limits.acquireTimeoutMs,
    ...(role.logger && { log: knexLog(role.logger) }),
  });
}

/**
 * The pool of the API or the worker process, sized and limited as configured; its connections carry the audit
 * context of the code using them (`audit-context.ts`).
 */
export function createProcessDb(config: PlatformConfig, role: 'api' | 'worker', logger?: Logger): Db {
  return recordActors(
    createDb(config.databaseUrl, {
      role,
      poolMax: config.databasePoolMax,
      limits: config.databaseLimits[role],
      logger,
    }),
  );
}

export const migrationsDirectory = path.resolve(__dirname, '../../../migrations');

export async function migrateToLatest(db: Db): Promise<string[]> {
  const [, applied] = (await db.migrate.latest({
    directory: migrationsDirectory,
    loadExtensions: [path.extname(__filename)],
  })) as [number, string[]];
  return applied;
}
