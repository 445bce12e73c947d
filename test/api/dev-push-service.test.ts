import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MockActivityEnvironment } from '@temporalio/testing';
import { pushActivities } from '../../src/modules/push/push.activities';
import { freePort } from '../../scripts/stack/ports';
import { startFakePushService, startPushInbox, type BrowserSubscription, type InboxPush } from '../fakes/push';
import { as, registerHotel, type RegisteredHotel } from '../helpers/accounts';
import { createTestApp, type TestApp } from '../helpers/app';
import { TEST_APP_ENV } from '../helpers/stack-env';

/**
 * The dev stack's push service (`npm run dev` prints its inbox): a subscription taken at its inbox and handed to the
 * API receives the API's pushes through the real Web Push path, and the inbox shows them decrypted.
 */

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'dev-push-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The push service as the dev stack runs it: fixed ports and a state file. */
async function devPushService(ports: { push: number; inbox: number }) {
  const stateFile = path.join(dir, `subscriptions-${ports.push}.json`);
  const service = await startFakePushService({ port: ports.push, stateFile });
  const inbox = await startPushInbox(service, ports.inbox);
  return {
    service,
    inbox,
    async close() {
      await inbox.close();
      await service.close();
    },
  };
}

async function inboxJson<T>(url: string, init?: RequestInit): Promise<{ status: number; body: T }> {
  const response = await fetch(url, init);
  return { status: response.status, body: (await response.json()) as T };
}

/** A subscription taken at the inbox, as the seed does for each demo account. */
async function subscribeAt(inboxUrl: string, label: string): Promise<BrowserSubscription> {
  const answer = await inboxJson<BrowserSubscription>(`${inboxUrl}/subscriptions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ label }),
  });
  expect(answer.status).toBe(201);
  return answer.body;
}

/** An app trusting the service's certificate pushes a new notification to the hotel owner's subscription. */
async function pushOne(caFile: string, hotel: RegisteredHotel | undefined, browser: BrowserSubscription) {
  const t: TestApp = createTestApp({ ALLOW_PRIVATE_OUTBOUND: 'true', PUSH_CA_FILE: caFile });
  try {
    const owner = hotel ?? (await registerHotel(t));
    const subscribed = await t.http
      .post(`/api/hotels/${owner.slug}/push/subscribe`)
      .set(as(owner.accessToken))
      .send(browser)
      .expect(200);
    const notification = await t.db.transaction((trx) =>
      t.services.notifications.notify(trx, owner.hotelId, {
        type: 'widget_booking',
        title: 'Новая бронь с сайта',
        body: 'Номер 101, 2 ночи',
        data: { booking_id: '7b0c1d7e-3f5a-4c9e-9a57-0d6f3f0e2a11' },
      }),
    );
    const result = await new MockActivityEnvironment().run(pushActivities(t.services.push).sendPush, {
      hotelId: owner.hotelId,
      notificationId: notification.id,
      subscriptionId: subscribed.body.id as string,
    });
    return { owner, notification, result };
  } finally {
    await t.close();
  }
}

it('shows a push the API sent, decrypted, under the label of the subscription it went to', async () => {
  const ports = { push: await freePort(), inbox: await freePort() };
  const dev = await devPushService(ports);
  try {
    const browser = await subscribeAt(dev.inbox.url, 'owner@siyanie.demo');
    expect(browser.endpoint).toMatch(new RegExp(`^https://127\\.0\\.0\\.1:${ports.push}/push/`));
    const { notification, result } = await pushOne(dev.service.caFile, undefined, browser);
    expect(result).toBe('sent');

    const pushes = await inboxJson<InboxPush[]>(`${dev.inbox.url}/pushes`);
    expect(pushes.body).toEqual([
      expect.objectContaining({
        endpoint: browser.endpoint,
        label: 'owner@siyanie.demo',
        payload: {
          type: 'widget_booking',
          title: 'Новая бронь с сайта',
          body: 'Номер 101, 2 ночи',
          data: { notification_id: notification.id, booking_id: '7b0c1d7e-3f5a-4c9e-9a57-0d6f3f0e2a11' },
        },
        vapid_subject: TEST_APP_ENV.VAPID_SUBJECT,
      }),
    ]);
    const page = await fetch(`${dev.inbox.url}/`);
    expect(page.headers.get('content-type')).toContain('text/html');
    const html = await page.text();
    expect(html).toContain('Новая бронь с сайта');
    expect(html).toContain('owner@siyanie.demo');
    expect(dev.service.rejected()).toEqual([]);
  } finally {
    await dev.close();
  }
});

it('keeps its subscriptions across a restart on the same ports, so pushes to them still arrive', async () => {
  const ports = { push: await freePort(), inbox: await freePort() };
  const first = await devPushService(ports);
  let browser: BrowserSubscription;
  try {
    browser = await subscribeAt(first.inbox.url, 'reception1@siyanie.demo');
  } finally {
    await first.close();
  }
  const again = await devPushService(ports);
  try {
    const listed = await inboxJson<{ endpoint: string; label: string }[]>(`${again.inbox.url}/subscriptions`);
    expect(listed.body).toEqual([
      expect.objectContaining({ endpoint: browser.endpoint, label: 'reception1@siyanie.demo' }),
    ]);
    const { result } = await pushOne(again.service.caFile, undefined, browser);
    expect(result).toBe('sent');
    const pushes = await inboxJson<InboxPush[]>(`${again.inbox.url}/pushes?endpoint=${browser.endpoint}`);
    expect(pushes.body).toEqual([
      expect.objectContaining({ payload: expect.objectContaining({ title: 'Новая бронь с сайта' }) }),
    ]);
  } finally {
    await again.close();
  }
});

it('refuses a label that is not a short string, issuing nothing', async () => {
  const dev = await devPushService({ push: await freePort(), inbox: await freePort() });
  try {
    for (const body of ['{"label": 5}', JSON.stringify({ label: 'x'.repeat(201) }), '[1]', '{']) {
      const answer = await fetch(`${dev.inbox.url}/subscriptions`, { method: 'POST', body });
      expect(answer.status).toBe(400);
    }
    expect(dev.service.subscriptions()).toEqual([]);
  } finally {
    await dev.close();
  }
});
