import { controlCaller } from '../http';
import type { YooKassaNotificationEvent, YooKassaPayment, YooKassaRefund } from '../../../src/integrations/yookassa';
import type { TEST_CARDS } from './cards';
import type { FaultMode } from './state';

export type CardChoice = keyof typeof TEST_CARDS | (string & {});

export interface FakeYooKassaControl {
  /**
   * Opens a shop with its secret key (the API refuses unknown shops and wrong keys), notifying `webhookUrl` if given
   * (else the fake's default one).
   */
  openShop(shopId: string, secretKey: string, webhookUrl?: string): Promise<void>;
  /** The shop's own notification URL; null turns its notifications off. */
  setWebhook(shopId: string, webhookUrl: string | null): Promise<void>;
  /** Moves the shop's clock forward (expiry is checked at once). */
  advanceClock(shopId: string, ms: number): Promise<void>;
  payments(shopId: string): Promise<{ payment: YooKassaPayment; refunds: YooKassaRefund[] }[]>;
  /** How many API requests the shop made, by `METHOD /path` (e.g. `GET /payments/<id>`). */
  requests(shopId: string): Promise<Record<string, number>>;
  /** Makes the shop's next `count` POSTs to the API fail the given way. */
  injectFault(shopId: string, mode: FaultMode, count: number): Promise<void>;
  /** Sends the payment's (or its last refund's) notification again, `times` times. */
  notifyAgain(shopId: string, paymentId: string, event: YooKassaNotificationEvent, times?: number): Promise<void>;
  /** What the payer does on the confirmation page: pays with a test card; answers the payment's new status. */
  pay(confirmationUrl: string, card: CardChoice): Promise<YooKassaPayment['status']>;
}

/** A typed hand on the fake's test controls (/_fake) and its payer page, for tests. */
export function fakeYooKassaControl(url: string): FakeYooKassaControl {
  const call = controlCaller(url);
  const shop = (shopId: string) => `/_fake/shops/${encodeURIComponent(shopId)}`;
  return {
    async openShop(shopId, secretKey, webhookUrl) {
      await call('PUT', shop(shopId), { secret_key: secretKey, webhook_url: webhookUrl });
    },
    async setWebhook(shopId, webhookUrl) {
      await call('PUT', shop(shopId), { webhook_url: webhookUrl });
    },
    async advanceClock(shopId, ms) {
      await call('POST', `${shop(shopId)}/clock`, { advance_ms: ms });
    },
    async payments(shopId) {
      return ((await call('GET', `${shop(shopId)}/payments`)) as { items: [] }).items;
    },
    async requests(shopId) {
      return (await call('GET', `${shop(shopId)}/requests`)) as Record<string, number>;
    },
    async injectFault(shopId, mode, count) {
      await call('POST', `${shop(shopId)}/faults`, { mode, count });
    },
    async notifyAgain(shopId, paymentId, event, times = 1) {
      await call('POST', `${shop(shopId)}/notify`, { payment_id: paymentId, event, times });
    },
    async pay(confirmationUrl, card) {
      return ((await call('POST', confirmationUrl, { card })) as { status: YooKassaPayment['status'] }).status;
    },
  };
}
