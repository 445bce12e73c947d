import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { selfSignedCertificate } from './certificate';
import {
  decryptPush,
  newReceiverKeys,
  restoreReceiverKeys,
  verifyVapid,
  type ReceiverKeys,
  type VapidClaims,
} from './web-push-crypto';

/** A subscription as the browser hands it to the page (`PushSubscription.toJSON()`). */
export interface BrowserSubscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
  expirationTime: null;
}

export interface ReceivedPush {
  endpoint: string;
  /** The decrypted body, parsed as JSON (undefined when it is not JSON). */
  payload: unknown;
  /** The decrypted body's size in bytes. */
  bytes: number;
  ttl: number;
  urgency: string | undefined;
  vapid: VapidClaims;
  /** When it arrived, ms since the epoch. */
  at: number;
}

/**
 * An answer other than 201 for an endpoint's next pushes (`times`, default once). `never`: the push is read and left
 * unanswered, as by a service that hangs, until the sender gives up and closes the connection (or the fake closes).
 */
export interface Scripted {
  status: number | 'never';
  retryAfter?: string;
  times?: number;
}

/** One push request that reached an endpoint, whatever became of it. */
export interface PushAttempt {
  endpoint: string;
  /** When it arrived, ms since the epoch. */
  at: number;
  /** The status answered; undefined while unanswered. */
  status?: number;
  /** When the sender closed the connection without waiting for an answer, ms since the epoch. */
  abandonedAt?: number;
}

/** A subscription the service issued, as its inbox shows it. */
export interface IssuedSubscription {
  endpoint: string;
  /** Who the subscribing "browser" was (a user's e-mail in the dev stack). */
  label: string | undefined;
  /** When it was issued, ms since the epoch. */
  at: number;
}

export interface FakePushServiceOptions {
  /** Pushes must be signed with this VAPID key (403 otherwise). */
  vapidPublicKey?: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  /**
   * A JSON file keeping the subscriptions issued (their receiving keys), so they outlive a restart on the same port
   * (the dev stack); none by default.
   */
  stateFile?: string;
}

/** The most pushes kept (oldest dropped first). */
const MAX_RECEIVED = 1000;

export interface FakePushService {
  url: string;
  /** The service's certificate (PEM) and a file holding it: what a sender must trust (`PUSH_CA_FILE`). */
  certificate: string;
  caFile: string;
  /** A new subscription, as a browser would get it from this service; `label` names the browser in the inbox. */
  subscribe(label?: string): BrowserSubscription;
  /** The subscriptions issued, oldest first. */
  subscriptions(): IssuedSubscription[];
  /** Pushes delivered (decrypted) so far, oldest first; to one endpoint when given. */
  received(endpoint?: string): ReceivedPush[];
  /** Every push request so far, oldest first (to one endpoint when given): answered, unanswered or abandoned. */
  attempts(endpoint?: string): PushAttempt[];
  /** Every request refused so far (bad VAPID, undecryptable, unknown endpoint), with why. */
  rejected(): { endpoint: string; status: number; reason: string }[];
  /** Answers the endpoint's next pushes with this status (410, 429 with Retry-After...) instead of accepting them. */
  answer(endpoint: string, scripted: Scripted): void;
  /** When the endpoint's last refused (scripted) answer was given, ms since the epoch. */
  lastScriptedAt(endpoint: string): number | undefined;
  reset(): void;
  close(): Promise<void>;
}

/** One subscription in the state file: its id, label and the receiving keys (base64url). */
interface SavedSubscription {
  id: string;
  label: string | null;
  at: number;
  private_key: string;
  auth: string;
}

async function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new Error('body too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * A Web Push service over HTTPS (self-signed, made at start): it issues subscriptions, checks each push's VAPID
 * signature (against `vapidPublicKey` when given), decrypts it with the subscription's private key and records it,
 * or answers as scripted (410 gone, 429 with Retry-After). Unknown endpoints get 404, like a real service.
 */
export async function startFakePushService(options: FakePushServiceOptions = {}): Promise<FakePushService> {
  const { key, cert } = selfSignedCertificate();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'fake-push-'));
  const caFile = path.join(dir, 'ca.pem');
  writeFileSync(caFile, cert);
  const receivers = new Map<string, ReceiverKeys>();
  const issued = new Map<string, { label: string | undefined; at: number }>();
  const { stateFile } = options;
  if (stateFile && existsSync(stateFile)) {
    for (const saved of JSON.parse(readFileSync(stateFile, 'utf8')) as SavedSubscription[]) {
      receivers.set(saved.id, restoreReceiverKeys(saved.private_key, saved.auth));
      issued.set(saved.id, { label: saved.label ?? undefined, at: saved.at });
    }
  }
  const save = () => {
    if (!stateFile) return;
    const saved: SavedSubscription[] = [...receivers].map(([id, keys]) => ({
      id,
      label: issued.get(id)?.label ?? null,
      at: issued.get(id)?.at ?? 0,
      private_key: keys.ecdh.getPrivateKey().toString('base64url'),
      auth: keys.authSecret.toString('base64url'),
    }));
    writeFileSync(stateFile, JSON.stringify(saved), { mode: 0o600 });
  };
  const scripts = new Map<string, Scripted[]>();
  const scriptedAt = new Map<string, number>();
  let received: ReceivedPush[] = [];
  let attempts: PushAttempt[] = [];
  let rejected: { endpoint: string; status: number; reason: string }[] = [];
  let origin = '';

  const server = createServer({ key, cert }, (req, res) => {
    const endpoint = `${origin}${req.url ?? ''}`;
    const attempt: PushAttempt = { endpoint, at: Date.now() };
    attempts.push(attempt);
    if (attempts.length > MAX_RECEIVED) attempts.shift();
    res.once('finish', () => (attempt.status = res.statusCode));
    res.once('close', () => {
      if (!res.writableFinished) attempt.abandonedAt = Date.now();
    });
    const refuse = (status: number, reason: string) => {
      rejected.push({ endpoint, status, reason });
      res.writeHead(status, { 'content-type': 'text/plain' }).end(reason);
    };
    void (async () => {
      const id = /^\/push\/([\w-]+)$/.exec(req.url ?? '')?.[1];
      const receiver = id ? receivers.get(id) : undefined;
      if (req.method !== 'POST' || !receiver) return refuse(404, 'no such subscription');
      let vapid: VapidClaims;
      try {
        vapid = verifyVapid(req.headers.authorization, origin);
      } catch (error) {
        return refuse(401, (error as Error).message);
      }
      if (options.vapidPublicKey && vapid.publicKey !== options.vapidPublicKey) return refuse(403, 'another VAPID key');
      const ttl = Number(req.headers.ttl);
      if (!Number.isInteger(ttl) || ttl < 0) return refuse(400, 'TTL missing');
      if (req.headers['content-encoding'] !== 'aes128gcm') return refuse(415, 'not aes128gcm');
      const body = await readBody(req, 4096);
      const scripted = scripts.get(endpoint)?.[0];
      if (scripted) {
        scripted.times = (scripted.times ?? 1) - 1;
        if (scripted.times <= 0) scripts.get(endpoint)!.shift();
        scriptedAt.set(endpoint, Date.now());
        if (scripted.status === 'never') return undefined;
        if (scripted.status === 410 || scripted.status === 404) {
          receivers.delete(id!);
          save();
        }
        res.writeHead(scripted.status, scripted.retryAfter ? { 'retry-after': scripted.retryAfter } : {}).end();
        return undefined;
      }
      let plain: Buffer;
      try {
        plain = decryptPush(body, receiver);
      } catch (error) {
        return refuse(400, `cannot decrypt: ${(error as Error).message}`);
      }
      let payload: unknown;
      try {
        payload = JSON.parse(plain.toString('utf8'));
      } catch {
        payload = undefined;
      }
      const urgency = req.headers.urgency as string | undefined;
      received.push({ endpoint, payload, bytes: plain.length, ttl, urgency, vapid, at: Date.now() });
      if (received.length > MAX_RECEIVED) received.shift();
      res.writeHead(201, { location: `${origin}/message/${randomUUID()}` }).end();
      return undefined;
    })().catch((error: Error) => refuse(400, error.message));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', resolve);
  });
  origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: origin,
    certificate: cert,
    caFile,
    subscribe(label) {
      const id = randomUUID();
      const keys = newReceiverKeys();
      receivers.set(id, keys);
      issued.set(id, { label, at: Date.now() });
      save();
      return {
        endpoint: `${origin}/push/${id}`,
        keys: { p256dh: keys.ecdh.getPublicKey().toString('base64url'), auth: keys.authSecret.toString('base64url') },
        expirationTime: null,
      };
    },
    subscriptions: () =>
      [...receivers.keys()].map((id) => ({
        endpoint: `${origin}/push/${id}`,
        label: issued.get(id)?.label,
        at: issued.get(id)?.at ?? 0,
      })),
    received: (endpoint) => received.filter((push) => endpoint === undefined || push.endpoint === endpoint),
    attempts: (endpoint) => attempts.filter((attempt) => endpoint === undefined || attempt.endpoint === endpoint),
    rejected: () => [...rejected],
    answer(endpoint, scripted) {
      scripts.set(endpoint, [...(scripts.get(endpoint) ?? []), { ...scripted }]);
    },
    lastScriptedAt: (endpoint) => scriptedAt.get(endpoint),
    reset() {
      received = [];
      attempts = [];
      rejected = [];
      scripts.clear();
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
