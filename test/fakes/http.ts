import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';

export interface ListeningFake {
  /** http://host:port */
  url: string;
  /** Stops listening, dropping the connections still open. */
  close(): Promise<void>;
}

/** Serves a fake's app on the port (0: a free one). */
export async function listen(app: Express, port: number, host: string): Promise<ListeningFake> {
  const server = app.listen(port, host);
  await once(server, 'listening');
  return {
    url: `http://${host}:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}

/** Calls a fake's test controls with JSON; a refusal throws with its status and answer. */
export function controlCaller(url: string) {
  return async (method: string, path: string, body?: unknown): Promise<unknown> => {
    const response = await fetch(new URL(path, url), {
      method,
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const answer: unknown = await response.json();
    if (!response.ok) throw new Error(`${method} ${path}: HTTP ${response.status} ${JSON.stringify(answer)}`);
    return answer;
  };
}
