import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { temporal } from '@temporalio/proto';

const root = path.resolve(__dirname, '../..');

export interface AppProcess {
  child: ChildProcess;
  /** Sends SIGTERM and waits for a clean exit (SIGKILL after the grace period). */
  stop(graceMs?: number): Promise<number | null>;
}

/** Runs one of the project's entry points (`src/main.ts`, `workers/main.ts`) as its own Node process. */
export function spawnEntryPoint(
  entry: string,
  env: NodeJS.ProcessEnv,
  output: 'inherit' | 'ignore' = 'inherit',
): AppProcess {
  // BENCH_CPU_PROF_DIR: each entry point writes a V8 CPU profile there when it exits (Node refuses --cpu-prof in
  // NODE_OPTIONS), to see where a bench's API or worker spends its time.
  const profile = process.env.BENCH_CPU_PROF_DIR
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF_DIR}`]
    : [];
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', path.join(root, entry)], {
    cwd: root,
    env,
    // Its own process group: a terminal's Ctrl-C reaches only the supervisor, which stops children in order.
    detached: true,
    stdio: ['ignore', output, output === 'inherit' ? 'inherit' : 'pipe'],
  });
  // A pipe nobody reads fills and then blocks the child's next write to stderr: it is drained, its tail kept to tell
  // why the process failed.
  let stderrTail = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderrTail = (stderrTail + chunk.toString()).slice(-8192);
  });
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      if (code !== null && code !== 0 && stderrTail) process.stderr.write(`${entry} exited ${code}:\n${stderrTail}\n`);
      resolve(code);
    }),
  );
  return {
    child,
    async stop(graceMs = 15_000) {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

async function until(what: string, check: () => Promise<boolean>, child: ChildProcess, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (child.exitCode !== null) throw new Error(`${what}: process exited with code ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error(`${what}: not ready after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export function waitForApi(baseUrl: string, api: AppProcess, timeoutMs = 60_000): Promise<void> {
  return until('API', async () => (await fetch(`${baseUrl}/health`)).ok, api.child, timeoutMs);
}

/** The worker is ready when Temporal sees it (this process) polling the task queue. */
export async function waitForWorker(
  address: string,
  taskQueue: string,
  worker: AppProcess,
  timeoutMs = 120_000,
): Promise<void> {
  const connection = await Connection.connect({ address });
  try {
    await until(
      'worker',
      async () => {
        const { pollers } = await connection.workflowService.describeTaskQueue({
          namespace: 'default',
          taskQueue: { name: taskQueue },
          taskQueueType: temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW,
        });
        // Its own poller (the worker's default identity is pid@host): a worker just killed stays listed a while.
        return (pollers ?? []).some((poller) => poller.identity?.startsWith(`${worker.child.pid}@`));
      },
      worker.child,
      timeoutMs,
    );
  } finally {
    await connection.close();
  }
}
