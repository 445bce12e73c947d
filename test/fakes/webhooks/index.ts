import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** A delivery as the receiver took it: verified against every secret it was told of. */
export interface ReceivedWebhook {
  path: string;
  id: string;
  seq: number;
  type: string;
  data: Record<string, unknown>;
  /** The secrets (of those registered for the path) whose signature verifies. */
  verifiedBy: string[];
  signatures: string[];
}

export interface FakeReceiver {
  url(path: string): string;
  /** The secrets a path's deliveries are checked with (each is tried: rotation signs with two). */
  trust(path: string, secrets: string[]): void;
  /** `down`: answers 503 (and keeps nothing) until set `up` again. */
  setDown(path: string, down: boolean): void;
  /** The next delivery at `path` whose event `refuse` matches is answered 503 (once). */
  refuseOnce(path: string, refuse: (event: { seq: number; data: Record<string, unknown> }) => boolean): void;
  /** Deliveries accepted at `path`, in arrival order (duplicates included). */
  received(path: string): ReceivedWebhook[];
  close(): Promise<void>;
}

/**
 * A webhook receiver as a hotel's system would run one: it checks each delivery's Standard Webhooks signature with the
 * `standardwebhooks` library (refusing, 401, one that no trusted secret verifies) and answers 2xx.
 */
export async function startFakeReceiver(): Promise<FakeReceiver> {
  const secrets = new Map<string, string[]>();
  const down = new Set<string>();
  const refusals = new Map<string, (event: { seq: number; data: Record<string, unknown> }) => boolean>();
  const accepted: ReceivedWebhook[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = req.url ?? '/';
      if (down.has(path)) return void res.writeHead(503).end();
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = {
        'webhook-id': String(req.headers['webhook-id']),
        'webhook-timestamp': String(req.headers['webhook-timestamp']),
        'webhook-signature': String(req.headers['webhook-signature']),
      };
      const verifiedBy = (secrets.get(path) ?? []).filter((secret) => {
        try {
          new Webhook(secret).verify(body, headers);
          return true;
        } catch {
          return false;
        }
      });
      if (verifiedBy.length === 0) return void res.writeHead(401).end();
      const event = JSON.parse(body) as { seq: number; type: string; data: Record<string, unknown> };
      if (refusals.get(path)?.(event)) {
        refusals.delete(path);
        return void res.writeHead(503).end();
      }
      accepted.push({
        path,
        id: headers['webhook-id'],
        seq: event.seq,
        type: event.type,
        data: event.data,
        verifiedBy,
        signatures: headers['webhook-signature'].split(' '),
      });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    trust: (path, list) => void secrets.set(path, list),
    refuseOnce: (path, refuse) => void refusals.set(path, refuse),
    setDown: (path, isDown) => void (isDown ? down.add(path) : down.delete(path)),
    received: (path) => accepted.filter((item) => item.path === path),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
