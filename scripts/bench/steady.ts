import { Client, Connection } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import type { Db } from '../../src/platform/db/knex';
import { startFakePushService, type FakePushService } from '../../test/fakes/push';
import { spawnEntryPoint, waitForApi, waitForWorker } from '../stack/app-processes';
import { freePort } from '../stack/ports';
import { call, mapConcurrently, registerConfirmedOwners, signIn } from './fixtures';
import { paced, percentiles } from './stats';
import { taskLatencies } from './task-latencies';
import { countActions, sumActions } from './temporal-actions';

/** The issue's rate; a machine that cannot create that many (the answers fail) is measured at a lower BENCH_STEADY_RATE. */
const RATE = Number(process.env.BENCH_STEADY_RATE ?? 100);
const SECONDS = Number(process.env.BENCH_STEADY_SECONDS ?? 120);
/** The flooding hotel's rooms: booking i takes room i % ROOMS for night 1 + i / ROOMS, so none clashes. */
const ROOMS = 100;
const NEIGHBOUR_EVERY_MS = 3000;
const TASK_QUEUE = 'hotel';
const DRAIN_TIMEOUT_MS = 1_200_000;
/** How long the neighbour waits for each of its effects before counting it missing. */
const ARRIVAL_TIMEOUT_MS = 600_000;
const HISTORY_READERS = 16;

const { TaskQueueType } = temporal.api.enums.v1;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const sorted = (values: number[]) => [...values].sort((a, b) => a - b);

/** A hotel's owner signed in, with `rooms` rooms of one category made through the API. */
async function hotelWithRooms(baseUrl: string, email: string, rooms: number) {
  const { token, hotel } = await signIn(baseUrl, email);
  const send = <T = { id: string }>(method: string, path: string, body?: object) =>
    call<T>(baseUrl, method, `${hotel}${path}`, token, body);
  const category = await send('POST', '/room-categories', { name: 'Bench', base_price: 4000 });
  const roomIds = await mapConcurrently(
    rooms,
    8,
    async (i) => (await send('POST', '/rooms', { number: String(101 + i), category_id: category.id })).id,
  );
  return { slug: hotel.split('/').pop()!, send, roomIds };
}

type BenchHotel = Awaited<ReturnType<typeof hotelWithRooms>>;

interface Flood {
  /** Create + confirm of each booking that made it, ms. */
  latencies: number[];
  errors: string[];
  /** When the last booking was answered, ms since the epoch. */
  endedAt: number;
  seconds: number;
}

/** `RATE` bookings a second for `SECONDS`, each created as an inquiry and then confirmed through the API. */
async function flood(hotel: BenchHotel): Promise<Flood> {
  const latencies: number[] = [];
  const errors: string[] = [];
  const started = performance.now();
  await paced(RATE, SECONDS * 1000, async (i) => {
    const sent = performance.now();
    try {
      const night = 1 + Math.floor(i / ROOMS);
      const booking = await hotel.send('POST', '/bookings', {
        room_id: hotel.roomIds[i % ROOMS],
        check_in: day(night),
        check_out: day(night + 1),
        guest_last_name: 'Bench',
        guest_first_name: 'Flood',
        status: 'inquiry',
      });
      await hotel.send('PATCH', `/bookings/${booking.id}`, { status: 'confirmed' });
      latencies.push(performance.now() - sent);
    } catch (error) {
      errors.push(error instanceof Error ? error.message.slice(0, 200) : String(error));
    }
  });
  return { latencies, errors, endedAt: Date.now(), seconds: (performance.now() - started) / 1000 };
}

/** Polls `seen` every `intervalMs` until it answers when (ms since the epoch) the thing was seen; undefined: never. */
async function firstSeen(seen: () => Promise<number | undefined>, intervalMs: number): Promise<number | undefined> {
  const deadline = Date.now() + ARRIVAL_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const at = await seen().catch(() => undefined);
    if (at !== undefined) return at;
    await sleep(intervalMs);
  }
  return undefined;
}

interface Arrivals {
  notification: number[];
  push: number[];
  email: number[];
  missing: string[];
}

/**
 * The neighbour's online booking with its guest's address, and after its commit (the answer): its notification in
 * the owner's `GET /notifications`, its Web Push at the push service, the guest's e-mail in the mail catcher.
 */
async function neighbourBooking(hotel: BenchHotel, k: number, push: FakePushService, catcher: string, into: Arrivals) {
  const guestEmail = `neighbour-${k}-${Date.now()}@example.test`;
  const booking = await hotel.send('POST', '/bookings', {
    room_id: hotel.roomIds[0],
    check_in: day(k + 1),
    check_out: day(k + 2),
    guest_last_name: 'Bench',
    guest_first_name: 'Neighbour',
    status: 'inquiry',
    source: 'online',
    guest_email: guestEmail,
  });
  const committed = Date.now();
  const ofBooking = (data: unknown) => (data as { booking_id?: string } | undefined)?.booking_id === booking.id;
  const measure = async (
    what: keyof Omit<Arrivals, 'missing'>,
    seen: () => Promise<number | undefined>,
    ms: number,
  ) => {
    const at = await firstSeen(seen, ms);
    if (at === undefined) into.missing.push(`${what} of ${booking.id}`);
    else into[what].push(Math.max(0, at - committed));
  };
  await Promise.all([
    measure(
      'notification',
      async () => {
        const inbox = await hotel.send<{ items: { data: unknown }[] }>('GET', '/notifications?limit=20');
        return inbox.items.some((item) => ofBooking(item.data)) ? Date.now() : undefined;
      },
      10,
    ),
    measure(
      'push',
      async () => push.received().find((p) => ofBooking((p.payload as { data?: unknown } | undefined)?.data))?.at,
      20,
    ),
    measure(
      'email',
      async () => {
        const response = await fetch(`${catcher}/api/messages?to=${encodeURIComponent(guestEmail)}`);
        return ((await response.json()) as unknown[]).length > 0 ? Date.now() : undefined;
      },
      20,
    ),
  ]);
}

/** The neighbour books every NEIGHBOUR_EVERY_MS until `until` says stop; each booking's effects are waited for. */
async function neighbour(hotel: BenchHotel, push: FakePushService, catcher: string, until: () => boolean) {
  const arrivals: Arrivals = { notification: [], push: [], email: [], missing: [] };
  const bookings: Promise<void>[] = [];
  for (let k = 0; !until(); k++) {
    bookings.push(
      neighbourBooking(hotel, k, push, catcher, arrivals).catch((error: unknown) => {
        arrivals.missing.push(`booking ${k}: ${error instanceof Error ? error.message.slice(0, 200) : error}`);
      }),
    );
    await sleep(NEIGHBOUR_EVERY_MS);
  }
  await Promise.all(bookings);
  return arrivals;
}

async function queueBacklog(connection: Connection, type: temporal.api.enums.v1.TaskQueueType): Promise<number> {
  const { stats } = await connection.workflowService.describeTaskQueue({
    namespace: 'default',
    taskQueue: { name: TASK_QUEUE },
    taskQueueType: type,
    reportStats: true,
  });
  return Number(stats?.approximateBacklogCount ?? 0);
}

/** When the outbox and the task queue (workflow and activity tasks) were first seen empty, ms since the epoch. */
async function backlogSeenGone(db: Db, connection: Connection): Promise<number> {
  const deadline = Date.now() + DRAIN_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const [{ count }] = await db('outbox').whereNull('delivered_at').count({ count: '*' });
    const empty =
      Number(count) === 0 &&
      (await queueBacklog(connection, TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW)) === 0 &&
      (await queueBacklog(connection, TaskQueueType.TASK_QUEUE_TYPE_ACTIVITY)) === 0;
    if (empty) return Date.now();
    await sleep(250);
  }
  throw new Error('the backlog was not gone in time');
}

/** The task latencies of every workflow of these hotels, from their histories. */
async function latenciesOf(client: Client, slugs: string[]) {
  const ids: string[] = [];
  const query = slugs.map((slug) => `HotelSlug = '${slug}'`).join(' OR ');
  for await (const execution of client.workflow.list({ query })) ids.push(execution.workflowId);
  const all = await mapConcurrently(ids.length, HISTORY_READERS, async (i) => {
    const history = await client.workflow.getHandle(ids[i]).fetchHistory();
    return { ...taskLatencies(history), actions: countActions(history) };
  });
  return {
    workflows: ids.length,
    workflowTasks: sorted(all.flatMap((one) => one.workflowTasks)),
    firstWorkflowTasks: sorted(all.flatMap((one) => one.firstWorkflowTask ?? [])),
    activities: sorted(all.flatMap((one) => one.activities)),
    lastStartedAt: Math.max(0, ...all.map((one) => one.lastStartedAt)),
    actions: sumActions(all.map((one) => one.actions)),
  };
}

const SLOWEST_PUSHES = 3;

/**
 * The histories of B's slowest pushes (by the time from the workflow's start to its send's completion), event by
 * event: which task waited, and whether the send was retried and why (an attempt the worker never ran ends by its
 * start-to-close timeout).
 */
async function slowestPushes(client: Client, slug: string): Promise<string[]> {
  const timelines: { sentAfter: number; line: string }[] = [];
  const query = `HotelSlug = '${slug}' AND WorkflowType = 'pushDelivery'`;
  for await (const execution of client.workflow.list({ query })) {
    const events = (await client.workflow.getHandle(execution.workflowId).fetchHistory()).events ?? [];
    const at = (i: number) =>
      Number(events[i]?.eventTime?.seconds ?? 0) * 1000 + (events[i]?.eventTime?.nanos ?? 0) / 1e6;
    const sent = events.findIndex((event) => event.activityTaskCompletedEventAttributes);
    const steps = events.map((event, i) => {
      const started = event.activityTaskStartedEventAttributes;
      const detail = started
        ? ` attempt ${started.attempt}${started.lastFailure ? ` after: ${started.lastFailure.message}` : ''}`
        : '';
      const type = temporal.api.enums.v1.EventType[event.eventType!].replace('EVENT_TYPE_', '').toLowerCase();
      return `+${((at(i) - at(0)) / 1000).toFixed(1)} s ${type}${detail}`;
    });
    timelines.push({ sentAfter: at(sent) - at(0), line: `  ${execution.workflowId}: ${steps.join(', ')}` });
  }
  const slowest = timelines.sort((a, b) => b.sentAfter - a.sentAfter).slice(0, SLOWEST_PUSHES);
  return [`hotel B's ${slowest.length} slowest pushes, workflow start ->`, ...slowest.map((one) => one.line)];
}

/** The relay's starts and signals, as the histories received them: a signal-with-start is one call (and one action). */
function relayCalls({ actions, byKind }: { actions: number; byKind: Record<string, number> }) {
  const [started, withSignal, signals] = ['workflow started', 'signal-with-start', 'signal'].map(
    (kind) => byKind[kind] ?? 0,
  );
  return (
    `starts and signals: ${started + withSignal + signals} calls to Temporal = ${started} starts + ${withSignal} ` +
    `signal-with-starts (a start and its signal in one) + ${signals} signals; ${actions} Temporal actions in all`
  );
}

function report(flooded: Flood, tasks: Awaited<ReturnType<typeof latenciesOf>>, seenGoneAt: number, b: Arrivals) {
  const made = flooded.latencies.length;
  return [
    `steady: hotel A books ${RATE}/s for ${SECONDS} s (open loop: POST /bookings as an inquiry, then PATCH it ` +
      `confirmed) while hotel B books an online room every ${NEIGHBOUR_EVERY_MS / 1000} s`,
    `hotel A: ${made} bookings confirmed = ${(made / flooded.seconds).toFixed(1)}/s, ${flooded.errors.length} ` +
      `failed; create + confirm ${percentiles(sorted(flooded.latencies))}`,
    ...(flooded.errors.length ? [`  first failure: ${flooded.errors[0]}`] : []),
    `workflow task schedule-to-start (${tasks.workflowTasks.length} tasks of ${tasks.workflows} workflows): ` +
      `${percentiles(tasks.workflowTasks)} (target p99 < 5 s)`,
    `  of which the workflows' first tasks (normal queue): ${percentiles(tasks.firstWorkflowTasks)}`,
    `activity schedule-to-start (${tasks.activities.length} first attempts):           ` +
      `${percentiles(tasks.activities)} (target p99 < 5 s)`,
    relayCalls(tasks.actions),
    `backlog gone ${seconds(Math.max(0, tasks.lastStartedAt - flooded.endedAt))} after the last booking's answer ` +
      `(its last task started; outbox and task queue seen empty after ` +
      `${seconds(seenGoneAt - flooded.endedAt)}) (target < 30 s)`,
    `hotel B (${b.notification.length} bookings), commit (its answer) ->`,
    `  notification in GET /notifications: ${percentiles(sorted(b.notification))} (target p99 < 100 ms)`,
    `  Web Push at the push service:       ${percentiles(sorted(b.push))} (target p99 < 2 s)`,
    `  guest e-mail in the mail catcher:   ${percentiles(sorted(b.email))} (target p99 < 2 s)`,
    ...(b.missing.length ? [`  missing after ${seconds(ARRIVAL_TIMEOUT_MS)}: ${b.missing.join('; ')}`] : []),
  ];
}

/**
 * The worker at a steady booking rate, and a neighbour hotel meanwhile: its own API and worker, with a fake Web Push
 * service that the owner of hotel B has subscribed a device at, and the stack's mail catcher.
 */
export async function benchSteady(env: NodeJS.ProcessEnv, db: Db, temporalAddress: string): Promise<string[]> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const push = await startFakePushService({ vapidPublicKey: env.VAPID_PUBLIC_KEY });
  const ownEnv = { ...env, ALLOW_PRIVATE_OUTBOUND: 'true', PUSH_CA_FILE: push.caFile };
  const api = spawnEntryPoint('src/main.ts', { ...ownEnv, PORT: String(port) }, 'ignore');
  const worker = spawnEntryPoint('workers/main.ts', ownEnv, 'ignore');
  const connection = await Connection.connect({ address: temporalAddress });
  try {
    await Promise.all([waitForApi(baseUrl, api), waitForWorker(temporalAddress, TASK_QUEUE, worker)]);
    const [emailA, emailB] = await registerConfirmedOwners(baseUrl, db, 2);
    const [a, b] = await Promise.all([hotelWithRooms(baseUrl, emailA, ROOMS), hotelWithRooms(baseUrl, emailB, 1)]);
    await b.send('POST', '/push/subscribe', push.subscribe('hotel B owner'));
    let flooding = true;
    const [{ flooded, seenGoneAt }, arrivals] = await Promise.all([
      flood(a).then(async (flooded) => {
        flooding = false;
        return { flooded, seenGoneAt: await backlogSeenGone(db, connection) };
      }),
      neighbour(b, push, env.MAIL_CATCHER_URL!, () => !flooding),
    ]);
    const tasks = await latenciesOf(new Client({ connection }), [a.slug, b.slug]);
    return [
      ...report(flooded, tasks, seenGoneAt, arrivals),
      ...(await slowestPushes(new Client({ connection }), b.slug)),
    ];
  } finally {
    await connection.close();
    await Promise.all([api.stop(), worker.stop()]);
    await push.close();
  }
}
