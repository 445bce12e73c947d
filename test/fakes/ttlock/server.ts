import express from 'express';
import { listen } from '../http';
import { apiRoutes } from './api-routes';
import { controlRoutes } from './control-routes';
import { sendError } from './errors';
import { FakeTTLockState } from './state';

export interface FakeTTLockOptions {
  /** 0 picks a free port. */
  port?: number;
  host?: string;
}

export interface FakeTTLock {
  /** http://host:port: the EU cloud's API root, and the test controls under /_fake. */
  url: string;
  /** The Chinese cloud's API root (`url`/cn): an account answers only on its own cloud, else 30008. */
  chinaUrl: string;
  close(): Promise<void>;
}

/** An in-memory TTLock cloud API for tests and local development; see test/fakes/ttlock/index.ts. */
export async function startFakeTTLock({ port = 0, host = '127.0.0.1' }: FakeTTLockOptions = {}): Promise<FakeTTLock> {
  const state = new FakeTTLockState();
  const app = express();
  app.disable('x-powered-by');
  app.use('/_fake', controlRoutes(state));
  app.use('/cn', apiRoutes(state, 'China'));
  app.use(apiRoutes(state, 'EU'));
  app.use(sendError);

  const { url, close } = await listen(app, port, host);
  return { url, chinaUrl: `${url}/cn`, close };
}
