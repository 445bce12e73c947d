import { WebSocket, type RawData } from 'ws';
import type { Db } from '../../src/platform/db/knex';
import { publishHotelEvent } from '../../src/platform/realtime/events';
import { percentile } from './stats';

export interface RealtimeResult {
  clients: number;
  connected: number;
  events: number;
  delivered: number;
  expected: number;
  p50: number;
  p99: number;
  max: number;
}

export interface RealtimeBenchOptions {
  clients?: number;
  events?: number;
  /** How long one event may take to reach every client before the next one is published anyway. */
  eventTimeoutMs?: number;
}

const EVENT_TYPE = 'bench_event';
const CONNECT_TIMEOUT_MS = 15_000;
const CONNECT_BATCH = 50;

/** Wall-clock milliseconds with sub-millisecond resolution (comparable between processes on one machine). */
const wallClockMs = () => performance.timeOrigin + performance.now();

function open(url: string): Promise<{ ws: WebSocket; hotelId: string }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    const timer = setTimeout(() => {
      ws.terminate();
      reject(new Error('connect timeout'));
    }, CONNECT_TIMEOUT_MS);
    ws.once('message', (data: RawData) => {
      clearTimeout(timer);
      const message = JSON.parse(data.toString()) as { type: string; payload: { hotel_id: string } };
      if (message.type === 'connected') resolve({ ws, hotelId: message.payload.hotel_id });
      else reject(new Error(`unexpected first message ${message.type}`));
    });
    ws.once('error', (error) => {
      clearTimeout(timer);
      ws.terminate();
      reject(error);
    });
  });
}

/**
 * Staff realtime latency: `clients` WebSockets of one hotel on the running API at `baseUrl`, then `events` events
 * published one at a time, each in its own committed transaction (as a service does), each waiting until every
 * client has it (or `eventTimeoutMs`). The latency of a delivery runs from the publish inside the transaction
 * (`sent_at`, just before COMMIT) to the client's receipt, so it covers commit, NOTIFY, the API's fan-out and the
 * socket; the clients share this process, so its own reading of 300 frames per event is included too.
 */
export async function benchRealtime(
  baseUrl: string,
  db: Db,
  accessToken: string,
  options: RealtimeBenchOptions = {},
): Promise<RealtimeResult> {
  const clients = options.clients ?? 300;
  const events = options.events ?? 300;
  const eventTimeoutMs = options.eventTimeoutMs ?? 5000;
  const url = `${baseUrl.replace(/^http/, 'ws')}/ws?token=${encodeURIComponent(accessToken)}`;

  const sockets: WebSocket[] = [];
  const latencies: number[] = [];
  const receivedPerEvent = new Array<number>(events).fill(0);
  let waiting: { seq: number; resolve: () => void } | undefined;

  try {
    let hotelId: string | undefined;
    for (let start = 0; start < clients; start += CONNECT_BATCH) {
      const batch = await Promise.allSettled(
        Array.from({ length: Math.min(CONNECT_BATCH, clients - start) }, () => open(url)),
      );
      for (const result of batch) {
        if (result.status === 'rejected') continue;
        sockets.push(result.value.ws);
        hotelId = result.value.hotelId;
      }
    }
    if (!hotelId) throw new Error('realtime bench: no client could connect');
    const connected = sockets.length;

    const onMessage = (data: RawData) => {
      const receivedAt = wallClockMs();
      const message = JSON.parse(data.toString()) as { type: string; payload: { seq: number; sent_at: number } };
      if (message.type !== EVENT_TYPE) return;
      latencies.push(receivedAt - message.payload.sent_at);
      const seq = message.payload.seq;
      receivedPerEvent[seq]++;
      if (waiting?.seq === seq && receivedPerEvent[seq] >= connected) waiting.resolve();
    };
    for (const ws of sockets) ws.on('message', onMessage);

    for (let seq = 0; seq < events; seq++) {
      const delivered = new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, eventTimeoutMs);
        waiting = {
          seq,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        };
      });
      const target = hotelId;
      await db.transaction((trx) =>
        publishHotelEvent(trx, target, { type: EVENT_TYPE, payload: { seq, sent_at: wallClockMs() } }),
      );
      if (receivedPerEvent[seq] >= connected) waiting?.resolve();
      await delivered;
      waiting = undefined;
    }

    latencies.sort((a, b) => a - b);
    return {
      clients,
      connected,
      events,
      delivered: latencies.length,
      expected: clients * events,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      max: latencies.at(-1) ?? NaN,
    };
  } finally {
    for (const ws of sockets) ws.terminate();
  }
}

export function formatRealtime(result: RealtimeResult): string {
  return (
    `realtime events (${result.clients} clients, ${result.events} events): p50 ${result.p50.toFixed(1)} ms, ` +
    `p99 ${result.p99.toFixed(1)} ms, delivered ${result.delivered}/${result.expected}`
  );
}
