import express from 'express';
import { listen } from '../http';
import { apiRoutes } from './api-routes';
import { controlRoutes } from './control-routes';
import { sendError } from './errors';
import { createNotifier } from './notifier';
import { payerRoutes } from './payer-page';
import { Payments } from './payments';
import { FakeState, type Shop } from './state';

export interface FakeYooKassaOptions {
  /** 0 picks a free port. */
  port?: number;
  host?: string;
  /** Where shops without a webhook of their own (PUT /_fake/shops/:shopId) are notified. */
  defaultWebhookUrl?: string;
  /** Shops open from the start (others are opened with PUT /_fake/shops/:shopId). */
  shops?: { shopId: string; secretKey: string }[];
}

export interface FakeYooKassa {
  /** http://host:port: the payer pages under /payer, the test controls under /_fake. */
  url: string;
  /** The API root to configure as YooKassa's (url + '/v3'). */
  apiUrl: string;
  close(): Promise<void>;
}

/** How often held and unconfirmed payments are checked for expiry, so notifications go out without a request. */
const EXPIRY_SWEEP_MS = 200;

/** An in-memory YooKassa API v3 for tests and local development; see test/fakes/yookassa/index.ts. */
export async function startFakeYooKassa({
  port = 0,
  host = '127.0.0.1',
  defaultWebhookUrl,
  shops = [],
}: FakeYooKassaOptions = {}): Promise<FakeYooKassa> {
  const state = new FakeState();
  for (const { shopId, secretKey } of shops) state.shop(shopId).secretKey = secretKey;
  const notifier = createNotifier();
  let url = '';
  const webhookOf = (shop: Shop) => (shop.webhookUrl === undefined ? defaultWebhookUrl : shop.webhookUrl);
  const payments = new Payments({
    state,
    confirmationUrl: (paymentId) => `${url}/payer/${paymentId}`,
    notify(shop, event, object) {
      const target = webhookOf(shop);
      if (target) notifier.send(target, { type: 'notification', event, object });
    },
  });

  const app = express();
  app.disable('x-powered-by');
  app.use('/v3', apiRoutes(state, payments));
  app.use('/payer', payerRoutes(payments));
  app.use('/_fake', controlRoutes(state, payments));
  app.use(sendError);

  const server = await listen(app, port, host);
  url = server.url;
  const sweep = setInterval(() => {
    for (const shop of state.shops.values()) payments.expireDue(shop);
  }, EXPIRY_SWEEP_MS).unref();

  return {
    url,
    apiUrl: `${url}/v3`,
    async close() {
      clearInterval(sweep);
      notifier.close();
      await server.close();
    },
  };
}
