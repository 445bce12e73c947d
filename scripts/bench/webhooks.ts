import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import type { Db } from '../../src/platform/db/knex';
import { publishHotelEvent } from '../../src/platform/realtime/events';
import { call, signIn } from './fixtures';
import { paced, percentile, percentiles } from './stats';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A local receiver: verifies each delivery's signature and notes when each event first arrived, by its `n` (events
 * the bench commits itself) and by its seq (events of any kind).
 */
export async function startReceiver() {
  let verifier: Webhook | undefined;
  const arrived = new Map<number, number>();
  const seqs = new Set<number>();
  let bad = 0;
  let outOfOrder = 0;
  let duplicates = 0;
  let lastSeq = 0;
  let down = false;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (down) return void res.writeHead(503).end();
      const body = Buffer.concat(chunks).toString('utf8');
      try {
        verifier?.verify(body, req.headers as Record<string, string>);
      } catch {
        bad += 1;
        return void res.writeHead(401).end();
      }
      const event = JSON.parse(body) as { seq: number; data: { n?: number } };
      if (event.seq < lastSeq) outOfOrder += 1;
      if (event.seq === lastSeq) duplicates += 1;
      lastSeq = Math.max(lastSeq, event.seq);
      seqs.add(event.seq);
      const { n } = event.data;
      if (n !== undefined && !arrived.has(n)) arrived.set(n, Date.now());
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    trust: (secret: string) => void (verifier = new Webhook(secret)),
    arrived,
    seqs,
    counts: () => ({ bad, outOfOrder, duplicates }),
    setDown: (isDown: boolean) => void (down = isDown),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Commit -> delivered for webhooks: events committed one per transaction (as many actions would), delivered by the
 * worker's `webhookDelivery` to a local receiver that verifies every signature: a paced phase (`rate` a second) and a
 * burst committed as fast as one client can. The worker must run, allowed to call 127.0.0.1.
 */
export async function benchWebhooks(
  baseUrl: string,
  db: Db,
  email: string,
  killWorker: () => Promise<void>,
): Promise<string[]> {
  const { token, hotel } = await signIn(baseUrl, email);
  const { hotel_id: hotelId } = (await db('users').where({ email }).first('hotel_id')) as { hotel_id: string };
  const receiver = await startReceiver();
  try {
    const created = await call<{ secret: string }>(baseUrl, 'POST', `${hotel}/webhooks`, token, {
      endpoint: receiver.url,
      event_types: ['room_updated'],
    });
    receiver.trust(created.secret);
    const committed = new Map<number, number>();
    let next = 0;
    const commitOne = async () => {
      const n = next++;
      await db.transaction((trx) => publishHotelEvent(trx, hotelId, { type: 'room_updated', payload: { n } }));
      committed.set(n, Date.now());
    };
    const delays = (from: number, to: number) =>
      Array.from({ length: to - from }, (_, i) => receiver.arrived.get(from + i)! - committed.get(from + i)!).sort(
        (a, b) => a - b,
      );
    const untilDelivered = async (count: number, deadlineMs: number) => {
      const deadline = Date.now() + deadlineMs;
      while (receiver.arrived.size < count && Date.now() < deadline) await sleep(50);
      if (receiver.arrived.size < count) throw new Error(`${receiver.arrived.size} of ${count} webhooks delivered`);
    };

    const rate = 20;
    const paced_ = 300;
    await paced(rate, (paced_ / rate) * 1000, commitOne);
    await untilDelivered(paced_, 60_000);
    const steady = delays(0, paced_);

    const burst = 1000;
    const burstStart = Date.now();
    for (let i = 0; i < burst; i++) await commitOne();
    const committedIn = (Date.now() - burstStart) / 1000;
    await untilDelivered(paced_ + burst, 300_000);
    const deliveredIn = (Math.max(...receiver.arrived.values()) - burstStart) / 1000;
    const burstDelays = delays(paced_, paced_ + burst);
    const faults = await withFaults(paced_ + burst, commitOne, receiver, killWorker, untilDelivered);
    const { bad, outOfOrder, duplicates } = receiver.counts();
    return [
      'webhooks (commit -> delivered to a local receiver verifying every signature, one subscription)',
      `${paced_} events at ${rate}/s: ${percentiles(steady)}, p95 ${percentile(steady, 95).toFixed(0)} ms (target p95 < 2 s)`,
      `${burst} events committed back to back in ${committedIn.toFixed(1)} s, all delivered after ` +
        `${deliveredIn.toFixed(1)} s (${(burst / deliveredIn).toFixed(0)}/s): ${percentiles(burstDelays)}`,
      faults,
      `${bad} signatures refused, ${outOfOrder} out of order, ${duplicates} duplicates (same webhook-id) in all`,
    ];
  } finally {
    await receiver.close();
  }
}

const FAULT_EVENTS = 10_000;

/**
 * 10,000 events committed back to back while the worker is SIGKILLed (and started again) twice and the receiver is
 * down for 10 s: how long until all are delivered, and how many are missing.
 */
async function withFaults(
  from: number,
  commitOne: () => Promise<void>,
  receiver: Awaited<ReturnType<typeof startReceiver>>,
  killWorker: () => Promise<void>,
  untilDelivered: (count: number, deadlineMs: number) => Promise<void>,
): Promise<string> {
  const started = Date.now();
  const faults: Promise<void>[] = [];
  for (let i = 0; i < FAULT_EVENTS; i++) {
    await commitOne();
    if (i === 2_000 || i === 7_000) faults.push(killWorker());
    if (i === 4_000) {
      receiver.setDown(true);
      faults.push(sleep(10_000).then(() => receiver.setDown(false)));
    }
  }
  const committedIn = (Date.now() - started) / 1000;
  await Promise.all(faults);
  await untilDelivered(from + FAULT_EVENTS, 900_000).catch(() => undefined);
  const missing = from + FAULT_EVENTS - receiver.arrived.size;
  return (
    `${FAULT_EVENTS} events committed in ${committedIn.toFixed(0)} s with 2 worker SIGKILLs and the receiver down ` +
    `10 s: ${missing} lost, all delivered ${((Date.now() - started) / 1000).toFixed(0)} s after the first commit`
  );
}
