import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FakePushService, IssuedSubscription, ReceivedPush } from './server';

/**
 * The fake push service's window for a person (the dev stack), over plain HTTP: what a browser would have shown.
 *
 * - GET /                  the pushes received, newest first, decrypted, with the subscription they went to
 * - GET /pushes            the same as JSON (`?endpoint=` for one subscription's)
 * - GET /subscriptions     the subscriptions issued, as JSON
 * - POST /subscriptions    `{ "label": "..." }`: a new subscription, as a browser gets it (`PushSubscription.toJSON()`),
 *                          to hand to the API's POST /push/subscribe; the label names the browser on the page
 */
export interface PushInbox {
  url: string;
  close(): Promise<void>;
}

export interface InboxPush {
  endpoint: string;
  label: string | null;
  payload: unknown;
  bytes: number;
  ttl: number;
  urgency: string | null;
  vapid_subject: string;
  at: string;
}

const MAX_LABEL = 200;

export async function startPushInbox(service: FakePushService, port = 0): Promise<PushInbox> {
  const server = createServer((request, response) => {
    void answer(service, request, response).catch((error: Error) => send(response, 400, { error: error.message }));
  });
  server.listen(port, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://localhost:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
}

async function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  let text = '';
  for await (const chunk of request) {
    text += String(chunk);
    if (text.length > 4096) throw new Error('body too large');
  }
  const parsed: unknown = text ? JSON.parse(text) : {};
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('a JSON object expected');
  return parsed as Record<string, unknown>;
}

/** The pushes received, newest first, each with the label of its subscription. */
export function inboxPushes(service: FakePushService, endpoint?: string): InboxPush[] {
  const labels = new Map(service.subscriptions().map((issued) => [issued.endpoint, issued.label]));
  return [...service.received(endpoint)].reverse().map((push: ReceivedPush) => ({
    endpoint: push.endpoint,
    label: labels.get(push.endpoint) ?? null,
    payload: push.payload,
    bytes: push.bytes,
    ttl: push.ttl,
    urgency: push.urgency ?? null,
    vapid_subject: push.vapid.sub,
    at: new Date(push.at).toISOString(),
  }));
}

async function answer(service: FakePushService, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://localhost');
  if (request.method === 'GET' && url.pathname === '/') {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(page(inboxPushes(service), service.subscriptions()));
  } else if (request.method === 'GET' && url.pathname === '/pushes') {
    send(response, 200, inboxPushes(service, url.searchParams.get('endpoint') ?? undefined));
  } else if (request.method === 'GET' && url.pathname === '/subscriptions') {
    send(response, 200, service.subscriptions().map(subscriptionJson));
  } else if (request.method === 'POST' && url.pathname === '/subscriptions') {
    const { label } = await readJson(request);
    if (label !== undefined && (typeof label !== 'string' || label.length > MAX_LABEL)) {
      send(response, 400, { error: `label must be a string of at most ${MAX_LABEL} characters` });
      return;
    }
    send(response, 201, service.subscribe(label));
  } else {
    send(response, 404, { error: 'not found' });
  }
}

const subscriptionJson = (issued: IssuedSubscription) => ({
  endpoint: issued.endpoint,
  label: issued.label ?? null,
  at: new Date(issued.at).toISOString(),
});

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function page(pushes: InboxPush[], subscriptions: IssuedSubscription[]): string {
  const rows = pushes
    .map((push) => {
      const payload = push.payload as { title?: unknown; body?: unknown } | undefined;
      return `<tr><td>${escapeHtml(push.at)}</td><td>${escapeHtml(push.label ?? push.endpoint)}</td>
<td><b>${escapeHtml(String(payload?.title ?? ''))}</b><br>${escapeHtml(String(payload?.body ?? ''))}</td>
<td><pre>${escapeHtml(JSON.stringify(push.payload ?? null, null, 2))}</pre></td></tr>`;
    })
    .join('\n');
  return `<!doctype html><html><head><meta charset="utf-8"><title>Push service (dev)</title>
<meta http-equiv="refresh" content="10">
<style>body{font-family:sans-serif;margin:2em}td{vertical-align:top;padding:.3em .6em;border-bottom:1px solid #ddd}
pre{margin:0;font-size:.85em}</style></head><body><h1>Push service (dev)</h1>
<p>${subscriptions.length} subscriptions; ${pushes.length} pushes received, decrypted, newest first
(JSON: <a href="/pushes">/pushes</a>, <a href="/subscriptions">/subscriptions</a>).</p>
<table><tr><th>Received</th><th>To</th><th>Shown</th><th>Payload</th></tr>
${rows}</table></body></html>`;
}
