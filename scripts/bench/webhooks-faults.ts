import type { Db } from '../../src/platform/db/knex';
import { call, registerConfirmedOwners, signIn } from './fixtures';
import { faultTimeline, seconds, startOwnStack } from './own-stack';
import { startReceiver } from './webhooks';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A hotel whose rooms' status changes are its events (`room_updated`), subscribed to by a local receiver that
 * verifies every signature. `change(i)` sets room `i % rooms` clean or dirty through the API, again and again while
 * the API is down or refuses (a request that committed before its answer was lost commits once more: one event more).
 */
async function subscribedHotel(baseUrl: string, db: Db, rooms: number) {
  const [email] = await registerConfirmedOwners(baseUrl, db, 1);
  const session = await signIn(baseUrl, email!);
  const { hotel } = session;
  let { token } = session;
  const create = (resource: string, body: object) =>
    call<{ id: string }>(baseUrl, 'POST', `${hotel}/${resource}`, token, body);
  const category = await create('room-categories', { name: 'Faults', base_price: 5000 });
  const roomIds: string[] = [];
  for (let i = 0; i < rooms; i++)
    roomIds.push((await create('rooms', { number: `${101 + i}`, category_id: category.id })).id);
  const receiver = await startReceiver();
  const created = await call<{ secret: string }>(baseUrl, 'POST', `${hotel}/webhooks`, token, {
    endpoint: receiver.url,
    event_types: ['room_updated'],
  });
  receiver.trust(created.secret);
  const change = async (i: number) => {
    const body = { status: Math.floor(i / rooms) % 2 === 0 ? 'dirty' : 'clean' };
    for (;;) {
      const refused = await call(baseUrl, 'PATCH', `${hotel}/rooms/${roomIds[i % rooms]}/status`, token, body).then(
        () => undefined,
        (error: Error) => error.message,
      );
      if (refused === undefined) return;
      // The access token lasts minutes: a long run signs in again (the API down also lands here, and retries).
      if (refused.includes(': 401 '))
        token = await signIn(baseUrl, email!).then(
          (session) => session.token,
          () => token,
        );
      await sleep(200);
    }
  };
  /** Every seq of the hotel's events, from the pull feed (what was committed, whatever the deliveries did). */
  const committedSeqs = async () => {
    const seqs: number[] = [];
    for (let after = 0; ;) {
      const page = await call<{ items: { seq: number }[]; next_after: number }>(
        baseUrl,
        'GET',
        `${hotel}/events?after=${after}&limit=500`,
        token,
      );
      seqs.push(...page.items.map((item) => item.seq));
      if (page.items.length === 0) return seqs;
      after = page.next_after;
    }
  };
  /** Waits until every committed event has arrived (or the deadline): how many have not. */
  const missingAfter = async (deadlineMs: number) => {
    const deadline = Date.now() + deadlineMs;
    const all = await committedSeqs();
    const missing = () => all.filter((seq) => !receiver.seqs.has(seq)).length;
    while (missing() > 0 && Date.now() < deadline) await sleep(200);
    return { committed: all.length, missing: missing() };
  };
  return { receiver, change, missingAfter, close: receiver.close };
}

const FAULT_EVENTS = 10_000;
const ROOMS = 4;

/**
 * 10,000 events committed through the API by 4 clients while the worker is SIGKILLed twice, the API SIGKILLed once,
 * the Temporal server restarted once and the receiver down for 30 s, each at its own point of the run.
 */
export async function benchWebhookFaults(env: NodeJS.ProcessEnv, db: Db): Promise<string[]> {
  const stack = await startOwnStack(env, 'webhook-faults');
  try {
    const hotel = await subscribedHotel(stack.baseUrl, db, ROOMS);
    stack.onStop(hotel.close);
    const timeline = faultTimeline();
    const at = (done: number, what: string, fault: () => Promise<void>) => timeline.at(`event ${done}`, what, fault);
    const started = Date.now();
    let next = 0;
    const client = async () => {
      for (let i = next++; i < FAULT_EVENTS; i = next++) {
        await hotel.change(i);
        if (i === 1_500) at(i, 'worker SIGKILL', stack.killWorker);
        if (i === 3_000) at(i, 'API SIGKILL', stack.killApi);
        if (i === 4_500) {
          hotel.receiver.setDown(true);
          at(i, 'receiver down 30 s', () => sleep(30_000).then(() => hotel.receiver.setDown(false)));
        }
        if (i === 6_000) at(i, 'Temporal restart', stack.restartTemporal);
        if (i === 8_000) at(i, 'worker SIGKILL', stack.killWorker);
      }
    };
    await Promise.all(Array.from({ length: ROOMS }, client));
    const committedIn = Date.now() - started;
    await timeline.over();
    const { committed, missing } = await hotel.missingAfter(900_000);
    const { bad, outOfOrder, duplicates } = hotel.receiver.counts();
    return [
      'webhooks through faults (own API, worker and Temporal server; events are room status changes through the API)',
      ...timeline.lines,
      `${FAULT_EVENTS} changes by ${ROOMS} clients in ${seconds(committedIn)}: ${committed} events committed, ` +
        `${missing} lost, all delivered ${seconds(Date.now() - started)} after the first`,
      `${bad} signatures refused, ${outOfOrder} out of order, ${duplicates} duplicates (same webhook-id)`,
    ];
  } finally {
    await stack.stop();
  }
}

const OUTAGE_SECONDS = Number(process.env.BENCH_OUTAGE_SECONDS ?? 3_600);
const OUTAGE_EVENTS = 600;

/**
 * A receiver down for BENCH_OUTAGE_SECONDS (an hour by default) while 600 events commit, spread over the outage: how
 * long after its return until it has them all, and in what order.
 */
export async function benchWebhookOutage(env: NodeJS.ProcessEnv, db: Db): Promise<string[]> {
  const stack = await startOwnStack(env, 'webhook-outage');
  try {
    const hotel = await subscribedHotel(stack.baseUrl, db, ROOMS);
    stack.onStop(hotel.close);
    hotel.receiver.setDown(true);
    const started = Date.now();
    for (let i = 0; i < OUTAGE_EVENTS; i++) {
      await hotel.change(i);
      await sleep(Math.max(0, started + ((i + 1) * OUTAGE_SECONDS * 1000) / OUTAGE_EVENTS - Date.now()));
    }
    hotel.receiver.setDown(false);
    const returned = Date.now();
    const { committed, missing } = await hotel.missingAfter(1_800_000);
    const { bad, outOfOrder, duplicates } = hotel.receiver.counts();
    return [
      `webhooks after an outage: the receiver down ${seconds(OUTAGE_SECONDS * 1000)} while ${committed} events ` +
        `committed, ${missing} missing ${seconds(Date.now() - returned)} after its return (retries back off to ` +
        `at most 10 minutes apart)`,
      `${bad} signatures refused, ${outOfOrder} out of order, ${duplicates} duplicates (same webhook-id)`,
    ];
  } finally {
    await stack.stop();
  }
}
