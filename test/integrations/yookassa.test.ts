import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createYooKassaClient,
  YooKassaRequestError,
  YooKassaUnavailableError,
  type CreatePaymentRequest,
  type YooKassaCredentials,
  type YooKassaNotification,
  type YooKassaNotificationEvent,
} from '../../src/integrations/yookassa';
import { fakeYooKassaControl, startFakeYooKassa, type FakeYooKassa } from '../fakes/yookassa';
import { until } from '../helpers/wait';

const HOUR_MS = 60 * 60_000;
const DAY_MS = 24 * HOUR_MS;

let fake: FakeYooKassa;
let receiver: Server;
let receiverUrl: string;
/** Notifications the receiver accepted. */
const notifications: YooKassaNotification[] = [];
/** Receiver path -> how many deliveries to it are still answered 503. */
const failuresLeft = new Map<string, number>();

beforeAll(async () => {
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const failures = failuresLeft.get(request.url!) ?? 0;
      if (failures > 0) {
        failuresLeft.set(request.url!, failures - 1);
        response.statusCode = 503;
      } else {
        notifications.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as YooKassaNotification);
      }
      response.end();
    });
  }).listen(0, '127.0.0.1');
  await once(receiver, 'listening');
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  fake = await startFakeYooKassa({ defaultWebhookUrl: `${receiverUrl}/notifications` });
});

afterAll(async () => {
  await fake.close();
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});

const control = () => fakeYooKassaControl(fake.url);

/** A new shop, opened at the fake (so its payments are its own), and a client whose HTTP attempts are counted. */
async function newShop() {
  const credentials: YooKassaCredentials = { shopId: `shop-${randomUUID()}`, secretKey: `test_${randomUUID()}` };
  await control().openShop(credentials.shopId, credentials.secretKey);
  let attempts = 0;
  const client = createYooKassaClient({
    baseUrl: fake.apiUrl,
    fetch: (input, init) => {
      attempts += 1;
      return fetch(input, init);
    },
  });
  return { credentials, client, attempts: () => attempts };
}

function paymentRequest(overrides: Partial<CreatePaymentRequest> = {}): CreatePaymentRequest {
  return {
    amount: { value: '1500.00', currency: 'RUB' },
    capture: false,
    description: 'Booking 42, room 101',
    metadata: { booking_id: '42' },
    confirmation: { type: 'redirect', return_url: 'https://hotel.test/booking/42' },
    ...overrides,
  };
}

function notification(objectId: string, event: YooKassaNotificationEvent) {
  return until(() => notifications.find((n) => n.object.id === objectId && n.event === event), {
    what: `${event} for ${objectId}`,
  });
}

async function paidPayment(
  card = 'success',
  overrides: Partial<CreatePaymentRequest> = {},
  shop?: Awaited<ReturnType<typeof newShop>>,
) {
  shop ??= await newShop();
  const created = await shop.client.createPayment(shop.credentials, paymentRequest(overrides), randomUUID());
  await control().pay(created.confirmation!.confirmation_url, card);
  return { ...shop, payment: await shop.client.getPayment(shop.credentials, created.id) };
}

describe('YooKassa client against the fake', () => {
  test('a hold paid with the success card waits for capture, with the card and a notification', async () => {
    const { payment } = await paidPayment();
    expect(payment).toMatchObject({
      status: 'waiting_for_capture',
      paid: true,
      amount: { value: '1500.00', currency: 'RUB' },
      metadata: { booking_id: '42' },
      payment_method: { type: 'bank_card', card: { last4: '4477', card_type: 'MasterCard' } },
    });
    const holdMs = Date.parse(payment.expires_at!) - Date.parse(payment.created_at);
    expect(holdMs).toBeGreaterThanOrEqual(7 * DAY_MS - 60_000);
    const { object } = await notification(payment.id, 'payment.waiting_for_capture');
    expect(object).toMatchObject({ id: payment.id, status: 'waiting_for_capture' });
  });

  test('a new payment is pending with a confirmation page to pay on', async () => {
    const { client, credentials } = await newShop();
    const payment = await client.createPayment(credentials, paymentRequest(), randomUUID());
    expect(payment).toMatchObject({ status: 'pending', paid: false, test: true });
    const page = await fetch(payment.confirmation!.confirmation_url);
    expect(page.headers.get('content-type')).toMatch(/html/);
    expect(await page.text()).toContain('5555555555554477');
  });

  test('a partial capture takes part of the hold', async () => {
    const { client, credentials, payment } = await paidPayment();
    const captured = await client.capturePayment(credentials, payment.id, randomUUID(), {
      amount: { value: '1000.00', currency: 'RUB' },
    });
    expect(captured).toMatchObject({ status: 'succeeded', paid: true, amount: { value: '1000.00' } });
    expect(captured.captured_at).toBeDefined();
    await notification(payment.id, 'payment.succeeded');
  });

  test('a hold is cancelled by the merchant; a pending payment cannot be', async () => {
    const { client, credentials, payment } = await paidPayment();
    const canceled = await client.cancelPayment(credentials, payment.id, randomUUID());
    expect(canceled).toMatchObject({
      status: 'canceled',
      cancellation_details: { party: 'merchant', reason: 'canceled_by_merchant' },
    });
    await notification(payment.id, 'payment.canceled');
    const pending = await client.createPayment(credentials, paymentRequest(), randomUUID());
    await expect(client.cancelPayment(credentials, pending.id, randomUUID())).rejects.toMatchObject({
      status: 400,
      code: 'invalid_request',
    });
  });

  test('a charge is refunded in two parts; a refund above what is left is refused and not retried', async () => {
    const { client, credentials, payment, attempts } = await paidPayment('success', { capture: true });
    expect(payment.status).toBe('succeeded');
    const refund = (value: string) =>
      client.createRefund(credentials, { payment_id: payment.id, amount: { value, currency: 'RUB' } }, randomUUID());
    const first = await refund('500.00');
    await refund('300.00');
    expect(await client.getRefund(credentials, first.id)).toMatchObject({
      status: 'succeeded',
      payment_id: payment.id,
    });
    expect(await client.getPayment(credentials, payment.id)).toMatchObject({ refunded_amount: { value: '800.00' } });
    await notification(first.id, 'refund.succeeded');

    const attemptsBefore = attempts();
    const refused = await refund('700.01').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(YooKassaRequestError);
    expect(refused).toMatchObject({
      status: 400,
      code: 'invalid_request',
      parameter: 'amount.value',
      retryable: false,
    });
    expect(attempts()).toBe(attemptsBefore + 1);
  });

  test('a receipt whose items do not add up to the amount is refused', async () => {
    const { client, credentials } = await newShop();
    const receipt = {
      customer: { email: 'guest@example.com' },
      items: [{ description: 'Night', quantity: '2', amount: { value: '700.00', currency: 'RUB' }, vat_code: 1 }],
    };
    await expect(client.createPayment(credentials, paymentRequest({ receipt }), randomUUID())).rejects.toMatchObject({
      status: 400,
      parameter: 'receipt.items',
    });
    receipt.items[0].amount.value = '750.00';
    await expect(client.createPayment(credentials, paymentRequest({ receipt }), randomUUID())).resolves.toBeDefined();
  });

  test('the same idempotence key makes one payment; with another body it is refused', async () => {
    const { client, credentials } = await newShop();
    const key = randomUUID();
    const first = await client.createPayment(credentials, paymentRequest(), key);
    const second = await client.createPayment(credentials, paymentRequest(), key);
    expect(second).toEqual(first);
    expect(await control().payments(credentials.shopId)).toHaveLength(1);
    const otherBody = paymentRequest({ amount: { value: '1.00', currency: 'RUB' } });
    await expect(client.createPayment(credentials, otherBody, key)).rejects.toMatchObject({
      code: 'invalid_request',
      parameter: 'Idempotence-Key',
    });
  });

  test('a lost answer is retried with the same key and makes exactly one payment', async () => {
    const { client, credentials, attempts } = await newShop();
    await control().injectFault(credentials.shopId, 'lose_response', 1);
    const payment = await client.createPayment(credentials, paymentRequest(), randomUUID());
    expect(attempts()).toBe(2);
    const payments = await control().payments(credentials.shopId);
    expect(payments.map((entry) => entry.payment.id)).toEqual([payment.id]);
  });

  test('one failure is retried; failing every attempt ends in YooKassaUnavailableError', async () => {
    const once = await newShop();
    await control().injectFault(once.credentials.shopId, 'unavailable', 1);
    await expect(once.client.createPayment(once.credentials, paymentRequest(), randomUUID())).resolves.toBeDefined();
    expect(once.attempts()).toBe(2);

    const always = await newShop();
    await control().injectFault(always.credentials.shopId, 'unavailable', 5);
    const error = await always.client.createPayment(always.credentials, paymentRequest(), randomUUID()).catch((e) => e);
    expect(error).toBeInstanceOf(YooKassaUnavailableError);
    expect(error).toMatchObject({ status: 500, code: 'internal_server_error', retryable: true });
    expect(always.attempts()).toBe(3);
    expect(await control().payments(always.credentials.shopId)).toHaveLength(0);
  });

  test.each([
    ['decline', 'insufficient_funds'],
    ['3ds_fail', '3d_secure_failed'],
  ])('the %s card cancels the payment: %s', async (card, reason) => {
    const { payment } = await paidPayment(card);
    expect(payment).toMatchObject({
      status: 'canceled',
      paid: false,
      cancellation_details: { party: 'payment_network', reason },
    });
    await notification(payment.id, 'payment.canceled');
  });

  test('an unpaid payment expires after an hour, a hold after seven days', async () => {
    const unpaid = await newShop();
    const pending = await unpaid.client.createPayment(unpaid.credentials, paymentRequest(), randomUUID());
    await control().advanceClock(unpaid.credentials.shopId, 61 * 60_000);
    expect(await unpaid.client.getPayment(unpaid.credentials, pending.id)).toMatchObject({
      status: 'canceled',
      cancellation_details: { party: 'yoo_money', reason: 'expired_on_confirmation' },
    });
    await notification(pending.id, 'payment.canceled');

    const held = await paidPayment();
    await control().advanceClock(held.credentials.shopId, 7 * DAY_MS + 60_000);
    const { object } = await notification(held.payment.id, 'payment.canceled');
    expect(object).toMatchObject({ cancellation_details: { party: 'yoo_money', reason: 'expired_on_capture' } });
  });

  test('a failed notification is delivered again, and duplicates can be sent on demand', async () => {
    const shop = await newShop();
    const path = `/flaky/${shop.credentials.shopId}`;
    failuresLeft.set(path, 2);
    await control().setWebhook(shop.credentials.shopId, `${receiverUrl}${path}`);
    const { payment } = await paidPayment('success', {}, shop);
    await notification(payment.id, 'payment.waiting_for_capture');
    expect(failuresLeft.get(path)).toBe(0);

    await control().notifyAgain(shop.credentials.shopId, payment.id, 'payment.waiting_for_capture', 2);
    await until(() => notifications.filter(({ object }) => object.id === payment.id).length === 3, {
      what: 'the two duplicates',
    });
  });

  test('a wrong secret key and a shop never opened are refused with invalid_credentials', async () => {
    const { client, credentials } = await newShop();
    await client.createPayment(credentials, paymentRequest(), randomUUID());
    const wrong = { ...credentials, secretKey: 'test_wrong' };
    const error = await client.getPayment(wrong, randomUUID()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(YooKassaRequestError);
    expect(error).toMatchObject({ status: 401, code: 'invalid_credentials', retryable: false });
    expect((error as Error).message).not.toContain('test_wrong');

    // An unknown shop is not registered by its first request, whatever secret it brings, twice over.
    const stranger = { shopId: `shop-${randomUUID()}`, secretKey: `test_${randomUUID()}` };
    for (let attempt = 0; attempt < 2; attempt++) {
      await expect(client.createPayment(stranger, paymentRequest(), randomUUID())).rejects.toMatchObject({
        status: 401,
        code: 'invalid_credentials',
        parameter: 'Authorization',
      });
    }
    expect(await control().payments(stranger.shopId)).toHaveLength(0);
  });

  const receiptWith = (customer: Record<string, string>, item: Record<string, string> = {}) => ({
    customer,
    items: [
      {
        description: 'Night',
        quantity: '1.00',
        amount: { value: '1500.00', currency: 'RUB' },
        vat_code: 1,
        payment_subject: 'service',
        payment_mode: 'full_payment',
        ...item,
      },
    ],
  });

  test.each([
    ['a phone with +', { receipt: receiptWith({ phone: '+79005550011' }) }, 'receipt.customer.phone'],
    ['a phone as typed', { receipt: receiptWith({ phone: '+7(900)5550011' }) }, 'receipt.customer.phone'],
    ['a phone with spaces', { receipt: receiptWith({ phone: '7 900 5550011' }) }, 'receipt.customer.phone'],
    ['a phone of 16 digits', { receipt: receiptWith({ phone: '7900555001122334' }) }, 'receipt.customer.phone'],
    ['a malformed e-mail', { receipt: receiptWith({ email: 'guest at example.com' }) }, 'receipt.customer.email'],
    [
      'an unknown payment_subject',
      { receipt: receiptWith({ email: 'guest@example.com' }, { payment_subject: 'lodging' }) },
      'receipt.items[0].payment_subject',
    ],
    [
      'an unknown payment_mode',
      { receipt: receiptWith({ email: 'guest@example.com' }, { payment_mode: 'prepaid' }) },
      'receipt.items[0].payment_mode',
    ],
    [
      'a relative return_url',
      { confirmation: { type: 'redirect' as const, return_url: '/paid' } },
      'confirmation.return_url',
    ],
    [
      'a return_url that is not http',
      { confirmation: { type: 'redirect' as const, return_url: 'javascript:alert(1)' } },
      'confirmation.return_url',
    ],
  ])('%s is refused with invalid_request naming the field', async (_case, overrides, parameter) => {
    const { client, credentials } = await newShop();
    const refused = client.createPayment(credentials, paymentRequest(overrides), randomUUID());
    await expect(refused).rejects.toMatchObject({ status: 400, code: 'invalid_request', parameter });
    expect(await control().payments(credentials.shopId)).toHaveLength(0);
  });

  test('a receipt in the documented forms is accepted', async () => {
    const { client, credentials } = await newShop();
    const receipt = receiptWith(
      { phone: '79005550011', email: 'guest@example.com' },
      { payment_mode: 'full_prepayment' },
    );
    await expect(client.createPayment(credentials, paymentRequest({ receipt }), randomUUID())).resolves.toMatchObject({
      status: 'pending',
    });
  });

  test('a POST without an Idempotence-Key is refused', async () => {
    const { shopId, secretKey } = (await newShop()).credentials;
    const response = await fetch(`${fake.apiUrl}/payments`, {
      method: 'POST',
      headers: {
        Authorization: `Basic ${Buffer.from(`${shopId}:${secretKey}`).toString('base64')}`,
        'Content-Type': 'application/json',
      },
      body: JSON.stringify(paymentRequest()),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      type: 'error',
      code: 'invalid_request',
      parameter: 'Idempotence-Key',
    });
  });

  test('the client refuses an idempotence key longer than 64 characters', async () => {
    const { client, credentials } = await newShop();
    await expect(client.createPayment(credentials, paymentRequest(), 'k'.repeat(65))).rejects.toThrow(RangeError);
  });

  test('HTTP 202 (still processing) is repeated after retry_after with the same key', async () => {
    const keys: (string | null)[] = [];
    const answers = [
      new Response(JSON.stringify({ type: 'processing', retry_after: 50 }), { status: 202 }),
      new Response(JSON.stringify({ id: 'p1', status: 'pending' }), { status: 200 }),
    ];
    const client = createYooKassaClient({
      baseUrl: 'https://yookassa.test/v3',
      fetch: async (_input, init) => {
        keys.push(new Headers(init?.headers).get('Idempotence-Key'));
        return answers.shift()!;
      },
    });
    const payment = await client.createPayment({ shopId: '1', secretKey: 's' }, paymentRequest(), 'key-1');
    expect(payment.id).toBe('p1');
    expect(keys).toEqual(['key-1', 'key-1']);
  });
});
