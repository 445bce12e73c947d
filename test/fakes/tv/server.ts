import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import express from 'express';

export type TvPushKind = 'checkin' | 'checkout';

export interface ReceivedPush {
  kind: TvPushKind;
  body: Record<string, unknown>;
  headers: Record<string, string | string[] | undefined>;
  at: Date;
}

/** `up` accepts, `down` answers 503, `refuse` answers 400; `delayMs` holds every answer that long. */
export interface TvMode {
  answer: 'up' | 'down' | 'refuse';
  delayMs: number;
}

export interface FakeTv {
  /** http://host:port: the server_url to configure; test controls under /_fake. */
  url: string;
  /** Every push it received (refused and failed ones too), oldest first. */
  received: ReceivedPush[];
  /** The pushes it accepted (answered 200), oldest first. */
  accepted(): ReceivedPush[];
  up(): void;
  down(): void;
  refuse(): void;
  slow(ms: number): void;
  reset(): void;
  close(): Promise<void>;
}

const REQUIRED = ['room', 'guest', 'language', 'arrival', 'departure', 'reference'];

/**
 * A hotel TV system speaking our wire format (README, "TV integration"): `POST /pms/v1/checkin` and `/pms/v1/checkout`
 * with the JSON body of a stay, answered `{ "ok": true }`, or 400 `{ "error": ... }` for a body off the format. Its
 * switches: down (503), refuse (400), slow (every answer held). Controls over HTTP too, for another process:
 * `PUT /_fake/mode { answer, delayMs }`, `GET /_fake/received`, `POST /_fake/reset`.
 */
export async function startFakeTv({ port = 0, host = '127.0.0.1' } = {}): Promise<FakeTv> {
  const received: ReceivedPush[] = [];
  const accepted = new Set<ReceivedPush>();
  let mode: TvMode = { answer: 'up', delayMs: 0 };

  const app = express();
  app.disable('x-powered-by');
  app.use(express.json({ limit: '64kb' }));
  app.post('/pms/v1/:kind', async (req, res) => {
    const kind = req.params.kind;
    if (kind !== 'checkin' && kind !== 'checkout') return void res.status(404).json({ error: 'unknown operation' });
    const push: ReceivedPush = {
      kind,
      body: (req.body ?? {}) as Record<string, unknown>,
      headers: req.headers,
      at: new Date(),
    };
    received.push(push);
    const { answer, delayMs } = mode;
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    if (answer === 'down') return void res.status(503).json({ error: 'tv system unavailable' });
    if (answer === 'refuse') return void res.status(400).json({ error: 'room unknown to the tv system' });
    const missing = REQUIRED.filter((field) => push.body[field] === undefined);
    if (missing.length > 0) return void res.status(400).json({ error: `missing ${missing.join(', ')}` });
    accepted.add(push);
    res.json({ ok: true });
  });
  app.put('/_fake/mode', (req, res) => {
    mode = { ...mode, ...(req.body as Partial<TvMode>) };
    res.json(mode);
  });
  app.get('/_fake/received', (_req, res) => void res.json(received));
  app.post('/_fake/reset', (_req, res) => {
    reset();
    res.json({ ok: true });
  });

  function reset() {
    received.length = 0;
    accepted.clear();
    mode = { answer: 'up', delayMs: 0 };
  }

  const server = app.listen(port, host);
  await once(server, 'listening');
  return {
    url: `http://${host}:${(server.address() as AddressInfo).port}`,
    received,
    accepted: () => received.filter((push) => accepted.has(push)),
    up: () => void (mode = { ...mode, answer: 'up' }),
    down: () => void (mode = { ...mode, answer: 'down' }),
    refuse: () => void (mode = { ...mode, answer: 'refuse' }),
    slow: (ms: number) => void (mode = { ...mode, delayMs: ms }),
    reset,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
