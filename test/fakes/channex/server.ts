import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { apiRoutes } from './api-routes';
import { Bookings } from './bookings';
import { controlRoutes, openProperty, type PropertySpec } from './control-routes';
import { sendError } from './errors';
import { Notifier } from './notifier';
import { FakeChannexState } from './state';

export interface FakeChannexOptions {
  /** 0 picks a free port. */
  port?: number;
  host?: string;
  /** Properties open from the start, by id (others are opened with PUT /_fake/properties/:id). */
  properties?: (PropertySpec & { id: string })[];
}

export interface FakeChannex {
  /** http://host:port: the test controls under /_fake. */
  url: string;
  /** The API root to configure as Channex's (url + '/api/v1'). */
  apiUrl: string;
  close(): Promise<void>;
}

/** An in-memory Channex API v1 for tests and local development; see test/fakes/channex/index.ts. */
export async function startFakeChannex({
  port = 0,
  host = '127.0.0.1',
  properties = [],
}: FakeChannexOptions = {}): Promise<FakeChannex> {
  const state = new FakeChannexState();
  for (const { id, ...spec } of properties) openProperty(state, id, spec);
  const notifier = new Notifier();
  const bookings = new Bookings(state, notifier);

  const app = express();
  app.disable('x-powered-by');
  app.use('/api/v1', apiRoutes(state, bookings));
  app.use('/_fake', controlRoutes(state, bookings, notifier));
  app.use(sendError);

  const server = app.listen(port, host);
  await once(server, 'listening');
  const url = `http://${host}:${(server.address() as AddressInfo).port}`;
  return {
    url,
    apiUrl: `${url}/api/v1`,
    async close() {
      notifier.close();
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}
