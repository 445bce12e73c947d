import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import express from 'express';
import Joi from 'joi';

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

/** The User-Agent the format documents for our pushes. */
const TV_USER_AGENT = 'hotel-pms-tv/1';

/** An instant as the format writes it: UTC, milliseconds, `Z` (what `Date#toISOString` gives). */
const instant = Joi.string()
  .pattern(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/, 'an ISO instant in UTC')
  .isoDate()
  .required();

/** A stay's reference: 32 hex digits (a digest of the booking), or `test-<uuid>` for a staff test check-in. */
const REFERENCE = /^(?:[0-9a-f]{32}|test-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

/** The body of a push as the wire format defines it (README, "TV integration"); anything else is refused. */
const pushBody = Joi.object({
  room: Joi.string().max(32).required(),
  guest: Joi.object({
    first_name: Joi.string().allow('').max(200).required(),
    last_name: Joi.string().max(200).required(),
  }).required(),
  language: Joi.string()
    .pattern(/^[a-z]{2}$/, 'an ISO 639-1 code')
    .required(),
  arrival: instant,
  departure: instant,
  reference: Joi.string().pattern(REFERENCE, 'a stay reference').required(),
})
  .custom((body: { arrival: string; departure: string }, helpers) =>
    Date.parse(body.departure) > Date.parse(body.arrival) ? body : helpers.error('any.invalid'),
  )
  .messages({ 'any.invalid': 'departure must be after arrival' });

/** What the wire format's headers must say; the TV system refuses a request without them (415, 406, 400). */
function headerRefusal(headers: express.Request['headers']): [number, string] | undefined {
  if (!/^application\/json(?:\s*;|$)/i.test(headers['content-type'] ?? '')) return [415, 'content-type must be JSON'];
  if (!(headers.accept ?? '').includes('application/json')) return [406, 'accept must include application/json'];
  if (headers['user-agent'] !== TV_USER_AGENT) return [400, `user-agent must be ${TV_USER_AGENT}`];
  return undefined;
}

/**
 * A hotel TV system speaking our wire format (README, "TV integration"): `POST /pms/v1/checkin` and `/pms/v1/checkout`
 * with the JSON body of a stay and the format's headers, answered `{ "ok": true }`, or refused `{ "error": ... }`: 400
 * for a body off the format (a field missing or of another type, an instant not in UTC ISO form or not in order, a
 * reference that is not one), 415, 406 or 400 for a header off it. Its
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
    const refusedHeaders = headerRefusal(req.headers);
    if (refusedHeaders) return void res.status(refusedHeaders[0]).json({ error: refusedHeaders[1] });
    const { error } = pushBody.validate(push.body, { convert: false, abortEarly: true });
    if (error) return void res.status(400).json({ error: error.message });
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
