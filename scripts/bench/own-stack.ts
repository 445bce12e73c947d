import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnEntryPoint, waitForApi, waitForWorker, type AppProcess } from '../stack/app-processes';
import { freePort } from '../stack/ports';
import { startTemporal, type RunningTemporal } from '../stack/temporal';

const TEMPORAL_BINARY = process.env.TEMPORAL_CLI ?? path.resolve(__dirname, '../../.tools/bin/temporal');

/**
 * Runs the tasks given one after another: a process killed again while it is starting is killed once it is up (not
 * started twice, the first copy left running).
 */
function inTurn() {
  let last: Promise<unknown> = Promise.resolve();
  return (task: () => Promise<void>): Promise<void> => {
    const turn = last.then(task);
    last = turn.catch(() => undefined);
    return turn;
  };
}

/**
 * Its own Temporal server (kept in a file, so it can be restarted with its workflows), API and worker on the bench's
 * database; every process can be killed and started again.
 */
export async function startOwnStack(env: NodeJS.ProcessEnv, name: string) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `hotel-pms-${name}-`));
  const temporalPort = await freePort();
  const apiPort = await freePort();
  const ownEnv = {
    ...env,
    TEMPORAL_ADDRESS: `127.0.0.1:${temporalPort}`,
    PORT: String(apiPort),
    ALLOW_PRIVATE_OUTBOUND: 'true',
  };
  const startServer = () =>
    startTemporal({
      binary: TEMPORAL_BINARY,
      port: temporalPort,
      dbFile: path.join(dataDir, 'temporal.db'),
      timeoutMs: 60_000,
    });
  let temporal: RunningTemporal = await startServer();
  const baseUrl = `http://127.0.0.1:${apiPort}`;
  const startApi = async () => {
    const api = spawnEntryPoint('src/main.ts', ownEnv, 'ignore');
    await waitForApi(baseUrl, api);
    return api;
  };
  const startWorker = async () => {
    const worker = spawnEntryPoint('workers/main.ts', ownEnv, 'ignore');
    await waitForWorker(ownEnv.TEMPORAL_ADDRESS, 'hotel', worker);
    return worker;
  };
  let [api, worker]: AppProcess[] = await Promise.all([startApi(), startWorker()]);
  const stops: (() => Promise<void>)[] = [];
  const workerTurns = inTurn();
  const apiTurns = inTurn();
  return {
    baseUrl,
    onStop: (stop: () => Promise<void>) => void stops.push(stop),
    killWorker: () =>
      workerTurns(async () => {
        await worker.stop(0);
        worker = await startWorker();
      }),
    killApi: () =>
      apiTurns(async () => {
        await api.stop(0);
        api = await startApi();
      }),
    async restartTemporal() {
      await temporal.stop();
      temporal = await startServer();
    },
    async stop() {
      await Promise.allSettled([...stops.map((stop) => stop()), api.stop(), worker.stop()]);
      await temporal.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export const seconds = (ms: number) => `${(ms / 1000).toFixed(0)} s`;

/**
 * Faults started at points of a run without waiting for them (a process killed and started again, a receiver down),
 * and the lines that tell when each began, how far into the run, and how long until it was over.
 */
export function faultTimeline() {
  const runStarted = Date.now();
  const lines: string[] = [];
  const faults: Promise<void>[] = [];
  return {
    lines,
    at(where: string, what: string, fault: () => Promise<void>) {
      const started = Date.now();
      lines.push(`${what} at ${where} (${seconds(started - runStarted)} into the run)`);
      faults.push(fault().then(() => void lines.push(`  ${what}: back after ${seconds(Date.now() - started)}`)));
    },
    /** Resolves when every fault is over. */
    over: () => Promise.all(faults),
  };
}
