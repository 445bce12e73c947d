import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Db } from '../../src/platform/db/knex';
import { pairAgent, startReferenceAgent, type ReferenceAgent } from '../../test/fakes/agent';
import { call, signIn } from './fixtures';
import { formatLoad, runLoad } from './stats';

export interface AgentsBenchOptions {
  /** Agents connected during the round trips. */
  agents?: number;
  /** Concurrent staff clients asking them. */
  clients?: number;
  /** Durable commands waiting for the offline desk. */
  backlog?: number;
}

/** Workstations are set up this many at a time (below the hotel's bulkhead of concurrent requests). */
const SETUP_CONCURRENCY = 10;
const WELCOME_TIMEOUT_MS = 60_000;
const DRAIN_TIMEOUT_MS = 60_000;
const DRAIN_POLL_MS = 20;
/** The workflow the backlog's commands claim to belong to; no worker runs, its completions are never delivered. */
const BACKLOG_WORKFLOW = 'bench-agents-drain';

async function inBatches<T>(count: number, size: number, make: (index: number) => Promise<T>): Promise<T[]> {
  const made: T[] = [];
  for (let start = 0; start < count; start += size) {
    made.push(...(await Promise.all(Array.from({ length: Math.min(size, count - start) }, (_, i) => make(start + i)))));
  }
  return made;
}

const seconds = (ms: number) => (ms / 1000).toFixed(2);

/**
 * The agent channel on the running API at `baseUrl`, its agents in this process (reference agents, protocol 1):
 * - round trips of a quick command (`GET /workstations/:id/list-ports`) from `clients` staff clients spread over
 *   `agents` connected desks: HTTP -> insert + NOTIFY -> the API's agent hub -> the agent's socket -> its reply ->
 *   UPDATE + NOTIFY -> the waiting request; and how long the desks took to connect, all at once, until welcomed;
 * - the drain of an offline desk's queue: `backlog` durable commands stored while it is offline, from its return until
 *   every one is recorded as succeeded (given up after a minute), once with rows about a millisecond apart and once
 *   with rows of one INSERT (one `created_at`), which the keyset of the pending batches must page through as well.
 * No worker runs meanwhile: the completions the durable replies enqueue are removed from the outbox at the end.
 */
export async function benchAgents(
  baseUrl: string,
  db: Db,
  email: string,
  durationMs: number,
  options: AgentsBenchOptions = {},
): Promise<string[]> {
  const agentCount = options.agents ?? 200;
  const clients = options.clients ?? 20;
  const backlog = options.backlog ?? 1000;
  const { token, hotel } = await signIn(baseUrl, email);
  const url = `${baseUrl.replace(/^http/, 'ws')}/agents/ws`;
  const agents: ReferenceAgent[] = [];
  let closes = 0;

  async function pairedWorkstation(name: string): Promise<{ id: string; credential: string }> {
    const { id } = await call<{ id: string }>(baseUrl, 'POST', `${hotel}/workstations`, token, { name });
    const { pair_code } = await call<{ pair_code: string }>(
      baseUrl,
      'POST',
      `${hotel}/workstations/${id}/pair-code`,
      token,
    );
    return { id, credential: (await pairAgent(baseUrl, pair_code)).credential };
  }

  const startAgent = (credential: string) => {
    const agent = startReferenceAgent({
      url,
      credential,
      reconnect: { minMs: 100, maxMs: 2000 },
      onEvent: (event) => {
        if (event.type === 'close') closes++;
      },
    });
    agents.push(agent);
    return agent;
  };

  try {
    const lines: string[] = [];
    const desks = await inBatches(agentCount, SETUP_CONCURRENCY, (i) => pairedWorkstation(`Bench desk ${i}`));

    const connectStarted = performance.now();
    const started = desks.map((desk) => startAgent(desk.credential));
    await Promise.all(started.map((agent) => agent.waitForWelcome(WELCOME_TIMEOUT_MS)));
    const connectMs = performance.now() - connectStarted;
    lines.push(
      `agents connecting at once (${agentCount}): all welcomed in ${seconds(connectMs)} s ` +
        `(${closes} closes meanwhile)`,
    );

    const statuses = new Map<number, number>();
    const roundTrips = await runLoad(clients, durationMs, async () => {
      const desk = desks[Math.floor(Math.random() * desks.length)];
      const response = await fetch(`${baseUrl}${hotel}/workstations/${desk.id}/list-ports`, {
        headers: { authorization: `Bearer ${token}` },
      });
      const body = (await response.json()) as { ports?: unknown[] };
      if (response.status !== 200) statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      return response.status === 200 && Array.isArray(body.ports);
    });
    const executed = started.reduce((sum, agent) => sum + agent.executed.length, 0);
    lines.push(
      `GET /workstations/:id/list-ports (${agentCount} agents, ${clients} clients): ${formatLoad(roundTrips)}`,
      `  agents executed ${executed} commands` +
        (statuses.size ? `; refusals ${[...statuses].map(([status, n]) => `${status}: ${n}`).join(', ')}` : ''),
    );

    for (const spacing of ['spread', 'shared'] as const) {
      const desk = await pairedWorkstation(`Bench offline desk (${spacing})`);
      lines.push(await drainBacklog(db, backlog, spacing, desk, startAgent));
    }
    return lines;
  } finally {
    await Promise.all(agents.map((agent) => agent.stop()));
    await db('outbox').whereRaw("message->>'workflowId' = ?", [BACKLOG_WORKFLOW]).whereNull('delivered_at').delete();
  }
}

/**
 * How the backlog's rows are timed: `shared` all by one INSERT (one `created_at`, as the brief's bulk insert gives),
 * `spread` about a millisecond apart with sub-millisecond parts (as commands stored one by one over time are).
 */
type Spacing = 'shared' | 'spread';

/** `backlog` durable commands stored for an offline desk, then the time from its return until all are settled. */
async function drainBacklog(
  db: Db,
  backlog: number,
  spacing: Spacing,
  desk: { id: string; credential: string },
  startAgent: (credential: string) => ReferenceAgent,
): Promise<string> {
  const agent = startAgent(desk.credential);
  await agent.waitForWelcome(WELCOME_TIMEOUT_MS);
  await agent.goOffline();
  const { hotel_id } = (await db('workstations').where({ id: desk.id }).first('hotel_id')) as { hotel_id: string };
  const expiresAt = new Date(Date.now() + 3_600_000);
  await db('agent_commands').insert(
    Array.from({ length: backlog }, (_, i) => ({
      hotel_id,
      workstation_id: desk.id,
      key: `bench-drain-${spacing}-${i}`,
      type: 'list_ports',
      payload: {},
      durable: true,
      task_token: Buffer.from(randomUUID()).toString('base64'),
      workflow_id: BACKLOG_WORKFLOW,
      expires_at: expiresAt,
      ...(spacing === 'spread' && {
        created_at: db.raw('now() - make_interval(secs => ?)', [((backlog - i) * 1.0137) / 1000]),
      }),
    })),
  );

  const succeeded = async () => {
    const [{ count }] = await db('agent_commands')
      .where({ workstation_id: desk.id, status: 'succeeded' })
      .count({ count: '*' });
    return Number(count);
  };
  const t0 = performance.now();
  agent.goOnline();
  const welcomed = agent.waitForWelcome(WELCOME_TIMEOUT_MS).then(() => performance.now() - t0);
  let executedMs: number | undefined;
  let settledMs: number | undefined;
  let settled = 0;
  while (performance.now() - t0 < DRAIN_TIMEOUT_MS) {
    if (executedMs === undefined && agent.executed.length >= backlog) executedMs = performance.now() - t0;
    settled = await succeeded();
    if (settled >= backlog) {
      settledMs = performance.now() - t0;
      break;
    }
    await sleep(DRAIN_POLL_MS);
  }
  executedMs ??= agent.executed.length >= backlog ? performance.now() - t0 : undefined;
  const welcomeMs = await welcomed;
  const [{ deliveries }] = await db('agent_commands')
    .where({ workstation_id: desk.id })
    .sum({ deliveries: 'deliveries' });
  const what =
    `offline desk's queue (${backlog} durable commands, ` +
    `${spacing === 'shared' ? 'one INSERT: one created_at' : 'created ~1 ms apart'})`;
  const counts =
    `welcomed after ${welcomeMs.toFixed(0)} ms; agent executed ${agent.executed.length}` +
    (executedMs === undefined ? '' : ` (all by ${seconds(executedMs)} s)`) +
    `, ${agent.redeliveries} redeliveries; ${Number(deliveries)} frames sent by the server`;
  if (settledMs === undefined) {
    return `${what}: only ${settled} succeeded within ${seconds(DRAIN_TIMEOUT_MS)} s (${counts})`;
  }
  return (
    `${what}: all succeeded ${seconds(settledMs)} s after going online, ` +
    `${(backlog / (settledMs / 1000)).toFixed(0)} commands/s (${counts})`
  );
}
