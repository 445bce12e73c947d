import { randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import type { Db } from '../../src/platform/db/knex';
import { enqueueOutbox, startWorkflowMessage, type OutboxMessage } from '../../src/platform/db/outbox';
import { searchAttributeKeys } from '../../src/platform/temporal/client';
import {
  bookingStatusSignal,
  bookingWorkflowIds,
  type BookingStatusChange,
  type BookingWorkflow,
} from '../../workflows/contracts/bookings';
import { paced, percentiles, runLoad } from './stats';

const TASK_QUEUE = 'hotel';
const CEILING_CLIENTS = 50;
/** The relay's throughput before issue 10 (serial loop, unindexed ordering check), on this kind of machine. */
const BEFORE = '13-16 msg/s on the dev stack; 21.8 msg/s = 10% of a 215.6/s ceiling in this bench';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A booking workflow as bookings start them, for a booking that does not exist: it runs its first activity (which
 * finds nothing to announce) and ends, so the worker does the same work per start in every phase.
 */
function bookingStart(hotelSlug: string) {
  const bookingId = randomUUID();
  const args: Parameters<BookingWorkflow> = [{ hotelId: randomUUID(), bookingId, status: 'cancelled' }];
  return { workflowId: bookingWorkflowIds.booking(bookingId), args, hotelSlug };
}

type BookingStart = ReturnType<typeof bookingStart>;

function outboxMessage(start: BookingStart) {
  return startWorkflowMessage<BookingWorkflow>('booking', start.workflowId, start.args, { HotelSlug: start.hotelSlug });
}

/**
 * A booking made and then cancelled, as its two outbox messages: `bookingLife`'s start and the status change's
 * signal-with-start. With nothing to send outside, its workflow runs no activity and ends at the signal.
 */
function bookingStartAndSignal(hotelSlug: string): OutboxMessage[] {
  const bookingId = randomUUID();
  const workflowId = bookingWorkflowIds.booking(bookingId);
  const args: Parameters<BookingWorkflow> = [{ hotelId: randomUUID(), bookingId, status: 'inquiry', effects: {} }];
  const change: BookingStatusChange = { status: 'cancelled', reason: 'manual', effects: {} };
  return [
    startWorkflowMessage<BookingWorkflow>('bookingLife', workflowId, args, { HotelSlug: hotelSlug }),
    {
      kind: 'signalWithStart',
      workflowType: 'bookingLife',
      workflowId,
      args,
      signal: bookingStatusSignal.name,
      signalArgs: [change],
      searchAttributes: { HotelSlug: hotelSlug },
    },
  ];
}

/** CPU seconds (user and system) used so far by the processes whose command line contains `needle` (Linux's /proc). */
async function cpuSecondsOf(needle: string): Promise<number> {
  let ticks = 0;
  for (const pid of (await readdir('/proc')).filter((entry) => /^\d+$/.test(entry))) {
    const command = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (!`${command.split('\0').join(' ')} `.includes(needle)) continue;
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
    // After the command's name in parentheses: state is field 3, utime and stime fields 14 and 15, in clock ticks.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    ticks += Number(fields[11] ?? 0) + Number(fields[12] ?? 0);
  }
  return ticks / 100;
}

/** The Temporal server's and the worker's CPU seconds so far (the bench's own: by port and by path). */
function temporalCpu(temporalAddress: string) {
  const worker = path.join(path.resolve(__dirname, '../..'), 'workers/main.ts');
  const port = temporalAddress.split(':').pop();
  return async () => ({ server: await cpuSecondsOf(`--port ${port} `), worker: await cpuSecondsOf(`${worker} `) });
}

/** Until Temporal's visibility lists none of the hotel's workflows as running any more. */
async function untilEnded(client: Client, hotelSlug: string, deadlineMs: number): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  while (Date.now() < deadline) {
    const { count } = await client.workflow.count(`HotelSlug = '${hotelSlug}' AND ExecutionStatus = 'Running'`);
    if (count === 0) return;
    await sleep(250);
  }
  throw new Error(`the workflows of ${hotelSlug} did not end in time`);
}

/** When each message was committed (this process's clock, as Temporal's on the same machine). */
type Commits = Map<string, number>;

async function enqueueOne(db: Db, start: BookingStart, commits: Commits): Promise<void> {
  await db.transaction((trx) => enqueueOutbox(trx, outboxMessage(start)));
  commits.set(start.workflowId, Date.now());
}

async function untilDrained(db: Db, deadlineMs: number): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  while (Date.now() < deadline) {
    const [{ count }] = await db('outbox').whereNull('delivered_at').count({ count: '*' });
    if (Number(count) === 0) return;
    await sleep(100);
  }
  throw new Error('the outbox did not drain in time');
}

/** Commit -> workflow start, in ms, from the start times Temporal recorded for one hotel's workflows. */
async function startDelays(client: Client, hotelSlug: string, commits: Commits): Promise<number[]> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const delays: number[] = [];
    for await (const execution of client.workflow.list({ query: `HotelSlug = '${hotelSlug}'` })) {
      const committed = commits.get(execution.workflowId);
      if (committed !== undefined) delays.push(Math.max(0, execution.startTime.getTime() - committed));
    }
    // Visibility is eventually consistent: wait until it lists every workflow that was started.
    if (delays.length >= commits.size || Date.now() > deadline) return delays.sort((a, b) => a - b);
    await sleep(250);
  }
}

/**
 * The Temporal ceiling (direct starts by 50 clients) and the outbox relay in the same run: its drain rate, its
 * commit -> start delay below the ceiling, and another hotel's delay while one hotel floods it above the ceiling.
 * The worker process (workflows and relay) must be running.
 */
export async function benchOutbox(db: Db, temporalAddress: string, durationMs: number): Promise<string[]> {
  const connection = await Connection.connect({ address: temporalAddress });
  const client = new Client({ connection });
  try {
    // From an empty outbox: earlier benches leave their bookings' messages, delivered once the worker runs.
    await untilDrained(db, 600_000);
    const ceiling = await runLoad(CEILING_CLIENTS, durationMs, async () => {
      const start = bookingStart('bench-ceiling');
      await client.workflow.start('booking', {
        taskQueue: TASK_QUEUE,
        workflowId: start.workflowId,
        args: start.args,
        typedSearchAttributes: [{ key: searchAttributeKeys.HotelSlug, value: start.hotelSlug }],
      });
      return true;
    });
    const lines = [
      `outbox relay (before issue 10: ${BEFORE})`,
      `Temporal ceiling (${CEILING_CLIENTS} clients, direct workflow.start): ${ceiling.perSecond.toFixed(1)} starts/s`,
    ];

    // A backlog committed at once, drained by the relay.
    const backlog = Math.max(500, Math.round((ceiling.perSecond * durationMs) / 1000));
    await db.transaction(async (trx) => {
      for (let i = 0; i < backlog; i++) await enqueueOutbox(trx, outboxMessage(bookingStart('bench-drain')));
    });
    const drainStarted = Date.now();
    await untilDrained(db, 600_000);
    const drainRate = backlog / ((Date.now() - drainStarted) / 1000);
    lines.push(
      `relay drain (${backlog} messages committed at once):    ${drainRate.toFixed(1)} msg/s ` +
        `= ${((100 * drainRate) / ceiling.perSecond).toFixed(0)}% of the ceiling (target >= 80%)`,
    );

    // Bookings made and changed while the relay is behind: each workflow's start and its signal wait together.
    const pairs = Math.round(backlog / 2);
    await db.transaction(async (trx) => {
      for (let i = 0; i < pairs; i++)
        for (const message of bookingStartAndSignal('bench-pairs')) await enqueueOutbox(trx, message);
    });
    const cpu = temporalCpu(temporalAddress);
    const cpuBefore = await cpu();
    const pairsStarted = Date.now();
    await untilDrained(db, 600_000);
    const pairsDrained = (Date.now() - pairsStarted) / 1000;
    await untilEnded(client, 'bench-pairs', 600_000);
    const cpuAfter = await cpu();
    const msPerWorkflow = (key: 'server' | 'worker') => ((1000 * (cpuAfter[key] - cpuBefore[key])) / pairs).toFixed(1);
    lines.push(
      `relay drain (${pairs} starts, each with its signal, committed at once): ${(pairs / pairsDrained).toFixed(1)} ` +
        `workflows/s = ${((2 * pairs) / pairsDrained).toFixed(1)} msg/s; every workflow ended after ` +
        `${((Date.now() - pairsStarted) / 1000).toFixed(1)} s; CPU per workflow: Temporal server ` +
        `${msPerWorkflow('server')} ms, worker ${msPerWorkflow('worker')} ms`,
    );

    // Below the ceiling: 50 messages a second, each in its own transaction.
    const steadyRate = 50;
    const steadyMs = 6 * durationMs;
    const steady: Commits = new Map();
    await paced(steadyRate, steadyMs, () => enqueueOne(db, bookingStart('bench-steady'), steady));
    await untilDrained(db, 120_000);
    lines.push(
      `${steadyRate} msg/s for ${(steadyMs / 1000).toFixed(0)} s, commit -> start:          ` +
        `${percentiles(await startDelays(client, 'bench-steady', steady))} (target p99 < 1 s)`,
    );

    // Above it: hotel A floods at 200/s while hotel B sends 5/s.
    const floodMs = 2 * durationMs;
    const flooding: Commits = new Map();
    const other: Commits = new Map();
    await Promise.all([
      paced(200, floodMs, () => enqueueOne(db, bookingStart('bench-flood-a'), flooding)),
      paced(5, floodMs, () => enqueueOne(db, bookingStart('bench-flood-b'), other)),
    ]);
    const [{ count: leftBehind }] = await db('outbox').whereNull('delivered_at').count({ count: '*' });
    await untilDrained(db, 600_000);
    lines.push(
      `hotel A at 200 msg/s for ${(floodMs / 1000).toFixed(0)} s (${leftBehind} waiting at its end): ` +
        `hotel B (5 msg/s) commit -> start ${percentiles(await startDelays(client, 'bench-flood-b', other))} ` +
        `(target p99 < 2 s); hotel A ${percentiles(await startDelays(client, 'bench-flood-a', flooding))}`,
    );
    return lines;
  } finally {
    await connection.close();
  }
}
