import { spawn } from 'node:child_process';
import { Connection } from '@temporalio/client';

export interface RunningTemporal {
  address: string;
  uiUrl?: string;
  stop(): Promise<void>;
}

/**
 * The dev server's one history shard caches 512 workflows' state and 512 KB of events by default: a task that waited
 * behind a burst of thousands of workflows found its workflow evicted and reloaded it from SQLite.
 */
const serverThroughput = ['history.cacheMaxSize=16384', 'history.eventsCacheMaxSizeBytes=67108864'];

/** `temporal server start-dev`, with our search attributes; waits until the frontend answers. */
export async function startTemporal(options: {
  binary: string;
  port: number;
  uiPort?: number;
  dbFile?: string;
  timeoutMs?: number;
}): Promise<RunningTemporal> {
  const args = [
    'server',
    'start-dev',
    '--ip',
    '127.0.0.1',
    '--port',
    String(options.port),
    '--namespace',
    'default',
    '--search-attribute',
    'HotelSlug=Keyword',
    '--search-attribute',
    'BookingId=Keyword',
    '--dynamic-config-value',
    'frontend.enableServerVersionCheck=false',
    // A backlogged task queue dispatches fairly across fairness keys (the hotel: see outbox-delivery.ts), so one
    // hotel's burst of workflows does not hold another's e-mail tasks back. One partition: fairness is per partition.
    '--dynamic-config-value',
    'matching.useNewMatcher=true',
    '--dynamic-config-value',
    'matching.enableFairness=true',
    '--dynamic-config-value',
    'matching.numTaskqueueReadPartitions=1',
    '--dynamic-config-value',
    'matching.numTaskqueueWritePartitions=1',
    // An activity that a workflow task schedules on this task queue comes back in the task's answer when the
    // worker has a free slot (eager activity dispatch: the SDK asks for it, the server is off by default): no
    // transfer task, no matching, no poll. The first workflow task of a start is handed back the same way (eager
    // workflow start, on by default; the relay asks for it).
    '--dynamic-config-value',
    'system.enableActivityEagerExecution=true',
    // The dev server has one history shard, so its per-shard caches are all there is (docs/operations.md, Worker sizing).
    ...serverThroughput.flatMap((setting) => ['--dynamic-config-value', setting]),
    '--log-level',
    'error',
    ...(options.uiPort ? ['--ui-port', String(options.uiPort)] : ['--headless']),
    // WAL with synchronous=normal: 2.3x the starts per second of SQLite's defaults (issue 10), still durable across
    // restarts of the server (only an operating-system crash may lose the last transactions).
    ...(options.dbFile
      ? [
          '--db-filename',
          options.dbFile,
          '--sqlite-pragma',
          'journal_mode=wal',
          '--sqlite-pragma',
          'synchronous=normal',
        ]
      : []),
  ];
  const child = spawn(options.binary, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const address = `127.0.0.1:${options.port}`;
  const deadline = Date.now() + (options.timeoutMs ?? 120_000);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Temporal dev server exited: ${stderr}`);
    try {
      const connection = await Connection.connect({ address, connectTimeout: '1 second' });
      await connection.workflowService.getSystemInfo({});
      await connection.close();
      break;
    } catch (error) {
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`Temporal dev server did not start: ${stderr}`, { cause: error });
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  return {
    address,
    uiUrl: options.uiPort ? `http://localhost:${options.uiPort}` : undefined,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
