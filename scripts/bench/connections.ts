import { spawnEntryPoint, waitForApi } from '../stack/app-processes';
import { freePort } from '../stack/ports';
import { signIn } from './fixtures';
import { SLOW_CONNECTION_ENV, slowConnectionsWhile } from './slow-connections';
import { percentile } from './stats';

/** What a normal client's p99 is held to meanwhile (the `connections` gate checks the cuts). */
const P99_BOUND_MS = 200;

/**
 * The `connections` gate's experiment, timed: 500 slow connections from ten loopback addresses against an API process
 * with the gate's short limits, while two normal clients list a hotel's rooms. Their latencies.
 */
export async function benchConnections(env: NodeJS.ProcessEnv, owner: string): Promise<string[]> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const api = spawnEntryPoint('src/main.ts', { ...env, ...SLOW_CONNECTION_ENV, PORT: String(port) }, 'ignore');
  try {
    await waitForApi(baseUrl, api);
    const { token, hotel } = await signIn(baseUrl, owner);
    const run = await slowConnectionsWhile(port, `${baseUrl}${hotel}/rooms`, { authorization: `Bearer ${token}` });
    const p99 = percentile(run.latencies, 99);
    return [
      `${run.connections.length} slow connections from ten addresses: a normal client's GET rooms ` +
        `${run.latencies.length} requests, ${run.failures.length} failures, ` +
        `p50 ${percentile(run.latencies, 50).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms ` +
        `(${p99 < P99_BOUND_MS ? 'within' : 'OVER'} the ${P99_BOUND_MS} ms bound)`,
    ];
  } finally {
    await api.stop();
  }
}
