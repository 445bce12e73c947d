import { billingModule } from '../../src/modules/billing/billing.module';
import { moduleActivities } from '../../src/platform/modules';
import type { BookingPaymentActivities } from '../../workflows/contracts/booking-payments';
import { createTestApp, type TestApp } from '../helpers/app';
import { as, registerHotel, uniqueEmail, type RegisteredHotel } from '../helpers/accounts';
import { waitForMessages } from '../helpers/mail';
import { connectStaff, startTestServer, type TestServer } from '../helpers/realtime';
import { readStackInfo } from '../helpers/stack-env';
import { createCategory, createRoom } from '../helpers/structure';
import { until } from '../helpers/wait';
import { withTemporal } from '../helpers/workflows';
import { fakeYooKassaControl } from '../fakes/yookassa';
import { localDay } from '../helpers/dates';

/**
 * Deposits and online payments end to end: the API, the shared worker running the real workflows, and the fake
 * YooKassa of the test stack, which pays with test cards and notifies the API's webhook.
 */

let t: TestServer;
/** The same service with short timers: the payer's time, the hold's settlement and the online payment's. */
let quick: TestApp;
const fake = fakeYooKassaControl(readStackInfo().env.YOOKASSA_FAKE_URL);

beforeAll(async () => {
  t = await startTestServer();
  quick = createTestApp({
    PAYMENT_CONFIRMATION_TIMEOUT_MS: '3000',
    PAYMENT_POLL_INTERVAL_MS: '1000',
    DEPOSIT_HOLD_SETTLE_AFTER_MS: '3000',
    ONLINE_PAYMENT_TTL_MS: '3000',
  });
});
afterAll(async () => {
  await quick.close();
  await t.close();
});

const api = (hotel: RegisteredHotel, path: string) => `/api/hotels/${hotel.slug}${path}`;
let shopSequence = 0;

interface Stay {
  hotel: RegisteredHotel;
  shopId: string;
  booking: { id: string; price: string };
  guestEmail: string;
  depositPath: string;
}

/** A hotel with a YooKassa shop notifying the API, and a booking staying from yesterday. */
async function stay(
  gateway: Record<string, unknown> = {},
  booking: Record<string, unknown> = {},
  settings: Record<string, unknown> = {},
): Promise<Stay> {
  const hotel = await registerHotel(t);
  const shopId = `${process.pid}${Date.now() % 100000}${shopSequence++}`;
  const secretKey = `test_secret_${shopId}`;
  await fake.openShop(shopId, secretKey, `${t.baseUrl}/api/payments/yookassa/notifications`);
  await t.http
    .post(api(hotel, '/payment-gateways'))
    .set(as(hotel.accessToken))
    .send({ provider: 'yookassa', shop_id: shopId, secret_key: secretKey, ...gateway })
    .expect(201);
  if (Object.keys(settings).length > 0)
    await t.http.patch(api(hotel, '/payment-settings')).set(as(hotel.accessToken)).send(settings).expect(200);
  const category = await createCategory(t, hotel, { base_price: 4000 });
  const room = await createRoom(t, hotel, category.id);
  const guestEmail = uniqueEmail('guest');
  const { body } = await t.http
    .post(api(hotel, '/bookings'))
    .set(as(hotel.accessToken))
    .send({
      guest_last_name: 'Соколова',
      guest_first_name: 'Мария',
      guest_phone: '+79990001122',
      guest_email: guestEmail,
      room_id: room.id,
      check_in: localDay(-1),
      check_out: localDay(1),
      ...booking,
    })
    .expect(201);
  return { hotel, shopId, booking: body, guestEmail, depositPath: api(hotel, `/bookings/${body.id}/deposit`) };
}

async function depositOf(s: Stay, app: TestApp = t) {
  return (await app.http.get(s.depositPath).set(as(s.hotel.accessToken)).expect(200)).body;
}

/** Polls the deposit as the desk does (every 5 s there; faster here) until `done` holds. */
async function depositWhen(s: Stay, what: string, done: (deposit: Record<string, unknown>) => boolean) {
  return until(
    async () => {
      const deposit = await depositOf(s);
      return done(deposit) && deposit;
    },
    { what, timeoutMs: 30_000, intervalMs: 100 },
  );
}

async function createDeposit(s: Stay, body: Record<string, unknown>, app: TestApp = t) {
  const response = await app.http.post(s.depositPath).set(as(s.hotel.accessToken)).send(body);
  expect(response.status).toBe(201);
  return response.body;
}

/** The deposit's page at the provider, once its workflow has created the payment. */
async function confirmationUrlOf(s: Stay): Promise<string> {
  const deposit = await depositWhen(s, 'the payment page', (d) => Boolean(d.confirmation_url));
  return deposit.confirmation_url as string;
}

async function setStatus(s: Stay, status: string) {
  await t.http
    .patch(api(s.hotel, `/bookings/${s.booking.id}`))
    .set(as(s.hotel.accessToken))
    .send({ status })
    .expect(200);
}

async function heldDeposit(s: Stay, amount = '5000') {
  const created = await createDeposit(s, { kind: 'hold', amount });
  expect(created).toMatchObject({ kind: 'hold', status: 'hold_created', amount: `${amount}.00`, refunds: [] });
  await fake.pay(await confirmationUrlOf(s), 'success');
  return depositWhen(s, 'hold_confirmed', (d) => d.status === 'hold_confirmed');
}

/** Every wake-up of the workflow enqueued so far has been delivered to it. */
const wakeUpsDelivered = (workflowId: string) =>
  until(async () => !(await t.db('outbox').where({ workflow_id: workflowId }).whereNull('delivered_at').first('id')), {
    what: `the wake-ups of ${workflowId} delivered`,
  });

/** The workflow waits with nothing to do: no activity running or scheduled, no task to run. */
const idle = (workflowId: string) =>
  until(
    () =>
      withTemporal(async (client) => {
        const { raw } = await client.workflow.getHandle(workflowId).describe();
        return (raw.pendingActivities ?? []).length === 0 && !raw.pendingWorkflowTask;
      }),
    { what: `${workflowId} idle` },
  );

describe('card hold', () => {
  it("shows in the booking's timeline: taken, confirmed by the provider, and the day it will be settled", async () => {
    const s = await stay();
    const before = Date.now();
    await heldDeposit(s);
    const timeline = `/bookings/${s.booking.id}/timeline`;
    const read = await until(
      async () => {
        const { body } = await t.http.get(api(s.hotel, timeline)).set(as(s.hotel.accessToken)).expect(200);
        return body.upcoming.entries.some((entry: { kind: string }) => entry.kind === 'hold_settles') && body;
      },
      { what: 'the hold settlement among what is still to come' },
    );
    const kinds = (read.entries as { kind: string }[]).map((entry) => entry.kind);
    expect(kinds).toEqual(expect.arrayContaining(['deposit', 'deposit_confirmed']));
    const settles = (read.upcoming.entries as { kind: string; at: string; actor: unknown }[]).find(
      (entry) => entry.kind === 'hold_settles',
    )!;
    expect(settles.actor).toEqual({ type: 'system', name: 'deposit' });
    // The default: six and a half days after the provider confirmed the hold.
    const settleAfter = 6.5 * 24 * 3_600_000;
    expect(Date.parse(settles.at)).toBeGreaterThanOrEqual(before + settleAfter);
    expect(Date.parse(settles.at)).toBeLessThanOrEqual(Date.now() + settleAfter);
  });

  it('is created at the provider, confirmed with the card once paid, and released with deductions after checkout, the guest e-mailed an itemized statement', async () => {
    const s = await stay();
    const held = await heldDeposit(s);
    expect(held).toMatchObject({ card_last4: '4477', card_brand: expect.any(String) });
    const [atProvider] = await fake.payments(s.shopId);
    expect(atProvider.payment).toMatchObject({ status: 'waiting_for_capture', amount: { value: '5000.00' } });

    const release = {
      items: [
        { name: 'Минибар', amount: '350' },
        { name: 'Разбитый бокал', amount: '1000' },
      ],
    };
    const early = await t.http.post(`${s.depositPath}/release`).set(as(s.hotel.accessToken)).send(release);
    expect(early.status).toBe(422);
    expect(early.body.code).toBe('checkout_required');

    await setStatus(s, 'checked_in');
    await setStatus(s, 'checked_out');
    const tooMuch = await t.http
      .post(`${s.depositPath}/release`)
      .set(as(s.hotel.accessToken))
      .send({ items: [{ name: 'Всё', amount: '5000.01' }] });
    expect(tooMuch.status).toBe(422);
    const minibar = await t.http.get(`${s.depositPath}/minibar`).set(as(s.hotel.accessToken)).expect(200);
    expect(minibar.body).toEqual({ items: [], total: '0.00' });

    const accepted = await t.http.post(`${s.depositPath}/release`).set(as(s.hotel.accessToken)).send(release);
    expect(accepted.status).toBe(202);
    expect(accepted.body.pending_operation).toBe('release');
    const released = await depositWhen(s, 'released', (d) => d.status === 'released');
    expect(released).toMatchObject({ captured_amount: '1350.00', pending_operation: null });
    const [captured] = await fake.payments(s.shopId);
    expect(captured.payment).toMatchObject({ status: 'succeeded', amount: { value: '1350.00' } });

    const [statement] = await waitForMessages(s.guestEmail);
    expect(statement.subject).toContain('Возврат депозита');
    expect(statement.text).toContain('Минибар: 350.00 RUB');
    expect(statement.text).toContain('Разбитый бокал: 1000.00 RUB');
    expect(statement.text).toContain('Возвращено: 3650.00 RUB');

    const history = await t.http.get(api(s.hotel, '/deposits')).set(as(s.hotel.accessToken)).expect(200);
    expect(history.body[0]).toMatchObject({ id: held.id, guest_name: 'Соколова Мария', status: 'released' });
  });

  it('is followed on the staff socket as it moves', async () => {
    const s = await stay();
    const staff = await connectStaff(t.wsUrl, s.hotel.accessToken);
    try {
      const held = await heldDeposit(s, '1000');
      const statuses = async (status: string) =>
        staff.next((m) => m.type === 'deposit_updated' && m.payload?.status === status);
      expect((await statuses('hold_created')).payload).toMatchObject({ deposit_id: held.id, kind: 'hold' });
      expect((await statuses('hold_confirmed')).payload).toMatchObject({ booking_id: s.booking.id });
    } finally {
      await staff.close();
    }
  });

  it('refuses a return address inside our networks, and notifications from outside the allowed sources', async () => {
    const s = await stay();
    const refused = await t.http
      .post(s.depositPath)
      .set(as(s.hotel.accessToken))
      .send({ kind: 'hold', amount: '100', return_url: 'http://10.1.2.3/back' });
    expect(refused.status).toBe(400);
    const notification = { type: 'notification', event: 'payment.succeeded', object: { id: 'any' } };
    const guarded = createTestApp({ YOOKASSA_NOTIFICATION_SOURCES: '185.71.76.0/27,2a02:5180::/32' });
    const local = createTestApp({ YOOKASSA_NOTIFICATION_SOURCES: '127.0.0.0/8,::1/128' });
    try {
      await guarded.http.post('/api/payments/yookassa/notifications').send(notification).expect(403);
      await local.http.post('/api/payments/yookassa/notifications').send(notification).expect(200);
    } finally {
      await Promise.all([guarded.close(), local.close()]);
    }
  });

  it('released without deductions is cancelled at the provider', async () => {
    const s = await stay({}, {}, { release_requires_checkout: false });
    await heldDeposit(s, '2000');
    await t.http.post(`${s.depositPath}/release`).set(as(s.hotel.accessToken)).send({}).expect(202);
    await depositWhen(s, 'released', (d) => d.status === 'released');
    const [atProvider] = await fake.payments(s.shopId);
    expect(atProvider.payment.status).toBe('canceled');
  });

  it('notifications delivered many times and out of order change nothing twice; a forged one changes nothing', async () => {
    const s = await stay();
    const held = await heldDeposit(s);
    const paymentId = held.provider_payment_id as string;
    // A stale "canceled" and a premature "succeeded" for a payment that is held: re-read, so ignored.
    const forged = (event: string, status: string) =>
      t.http
        .post('/api/payments/yookassa/notifications')
        .send({ type: 'notification', event, object: { id: paymentId, status } })
        .expect(200);
    await Promise.all([forged('payment.canceled', 'canceled'), forged('payment.succeeded', 'succeeded')]);
    await fake.notifyAgain(s.shopId, paymentId, 'payment.waiting_for_capture', 5);
    await t.http
      .post('/api/payments/yookassa/notifications')
      .send({ type: 'notification', event: 'payment.succeeded', object: { id: 'no-such-payment' } })
      .expect(200);
    await wakeUpsDelivered(`deposit:${held.id}`);
    const after = await depositOf(s);
    expect(after).toMatchObject({ status: 'hold_confirmed', card_last4: '4477', captured_amount: '0.00' });
    expect(await fake.payments(s.shopId)).toHaveLength(1);
  });

  it('a burst of notifications of one payment wakes its workflow once: one re-read at the provider', async () => {
    const s = await stay();
    const held = await heldDeposit(s);
    const paymentId = held.provider_payment_id as string;
    const workflowId = `deposit:${held.id}`;
    await wakeUpsDelivered(workflowId);
    await idle(workflowId);
    const reads = async () => (await fake.requests(s.shopId))[`GET /payments/${paymentId}`] ?? 0;
    const readsBefore = await reads();
    const lastRow = (await t.db('outbox').max('id as id').first()) as { id: string | null };
    // A window the whole burst fits in, however slow the machine: 20 answers took over a second on one, and the
    // default window is a second.
    const coalescing = createTestApp({ YOOKASSA_NOTIFICATION_COALESCE_MS: '10000' });
    try {
      await Promise.all(
        Array.from({ length: 20 }, () =>
          coalescing.http
            .post('/api/payments/yookassa/notifications')
            .send({ type: 'notification', event: 'payment.waiting_for_capture', object: { id: paymentId } })
            .expect(200),
        ),
      );
    } finally {
      await coalescing.close();
    }
    const wakeUps = await t
      .db('outbox')
      .where('id', '>', lastRow.id ?? 0)
      .where({ workflow_id: workflowId });
    expect(wakeUps).toHaveLength(1);
    await wakeUpsDelivered(workflowId);
    await until(async () => (await reads()) > readsBefore, { what: 'the payment re-read' });
    await idle(workflowId);
    expect((await reads()) - readsBefore).toBe(1);
  });

  it('notifications from one address past YOOKASSA_NOTIFICATIONS_PER_MINUTE are refused with 429', async () => {
    const limited = createTestApp({ YOOKASSA_NOTIFICATIONS_PER_MINUTE: '3' });
    const notification = { type: 'notification', event: 'payment.succeeded', object: { id: 'no-such-payment' } };
    try {
      for (let sent = 0; sent < 3; sent++)
        await limited.http.post('/api/payments/yookassa/notifications').send(notification).expect(200);
      const refused = await limited.http.post('/api/payments/yookassa/notifications').send(notification).expect(429);
      expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    } finally {
      await limited.close();
    }
  });

  it('whose answer from the provider was lost, again and again, is created once, not twice', async () => {
    const s = await stay();
    // Three lost answers exhaust the client's own retries: the activity fails and Temporal runs it again, as it
    // would on another worker after this one died between the provider's call and its record.
    await fake.injectFault(s.shopId, 'lose_response', 3);
    const created = await createDeposit(s, { kind: 'hold', amount: '3000' });
    await fake.pay(await confirmationUrlOf(s), 'success');
    await depositWhen(s, 'hold_confirmed', (d) => d.status === 'hold_confirmed');
    expect(await fake.payments(s.shopId)).toHaveLength(1);
    const attempts = await withTemporal(async (client) => {
      const { events } = await client.workflow.getHandle(`deposit:${created.id}`).fetchHistory();
      return (events ?? []).flatMap((event) => event.activityTaskStartedEventAttributes?.attempt ?? []);
    });
    expect(Math.max(...attempts)).toBeGreaterThanOrEqual(2);
  });

  it('paid with a declined card is cancelled with the reason', async () => {
    const s = await stay();
    await createDeposit(s, { kind: 'hold', amount: '3000' });
    await fake.pay(await confirmationUrlOf(s), 'decline');
    const cancelled = await depositWhen(s, 'cancelled', (d) => d.status === 'cancelled');
    expect(cancelled.cancel_reason).toBe('insufficient_funds');
  });

  it("never paid is cancelled after the payer's time; paid after that, it is handed straight back", async () => {
    const s = await stay();
    await createDeposit(s, { kind: 'hold', amount: '3000' }, quick);
    const url = await confirmationUrlOf(s);
    const expired = await depositWhen(s, 'cancelled unpaid', (d) => d.status === 'cancelled');
    expect(expired.cancel_reason).toBe('not_paid');
    await fake.pay(url, 'success');
    await until(async () => (await fake.payments(s.shopId))[0].payment.status === 'canceled', {
      what: 'the late hold cancelled at the provider',
    });
  });

  it("confirmed and left alone is settled before the provider lets it lapse, by the hotel's rule, and staff are told", async () => {
    const s = await stay({}, {}, { hold_expiry_action: 'capture' });
    await createDeposit(s, { kind: 'hold', amount: '4000' }, quick);
    await fake.pay(await confirmationUrlOf(s), 'success');
    const captured = await depositWhen(s, 'captured', (d) => d.status === 'captured');
    expect(captured.captured_amount).toBe('0.00');
    expect((await fake.payments(s.shopId))[0].payment.status).toBe('succeeded');
    const notifications = await t.http.get(api(s.hotel, '/notifications')).set(as(s.hotel.accessToken)).expect(200);
    expect(notifications.body.items.map((n: { type: string }) => n.type)).toContain('deposit_settled');
    // Captured money may still be refunded.
    await t.http.post(`${s.depositPath}/refund`).set(as(s.hotel.accessToken)).send({}).expect(202);
    await depositWhen(s, 'refunded', (d) => d.status === 'refunded');
  });

  it('is cancelled while unpaid, a cash one while held at the desk; a second open deposit is refused', async () => {
    const s = await stay();
    await createDeposit(s, { kind: 'hold', amount: '3000' });
    const second = await t.http.post(s.depositPath).set(as(s.hotel.accessToken)).send({ kind: 'cash', amount: '100' });
    expect(second.status).toBe(409);
    const cancelled = await t.http.delete(s.depositPath).set(as(s.hotel.accessToken)).expect(200);
    expect(cancelled.body).toMatchObject({ status: 'cancelled', cancel_reason: 'cancelled_by_staff' });
    const again = await t.http.delete(s.depositPath).set(as(s.hotel.accessToken));
    expect(again.status).toBe(422);

    const cash = await createDeposit(s, { kind: 'cash', amount: '1500' });
    expect(cash.status).toBe('paid_cash');
    await t.http.delete(s.depositPath).set(as(s.hotel.accessToken)).expect(200);
    expect((await depositOf(s)).status).toBe('cancelled');
  });

  it('needs a configured gateway; cash does not', async () => {
    const hotel = await registerHotel(t);
    const category = await createCategory(t, hotel, { base_price: 4000 });
    const room = await createRoom(t, hotel, category.id);
    const { body: booking } = await t.http
      .post(api(hotel, '/bookings'))
      .set(as(hotel.accessToken))
      .send({
        guest_last_name: 'Иванов',
        guest_first_name: 'Иван',
        room_id: room.id,
        check_in: localDay(0),
        check_out: localDay(2),
      })
      .expect(201);
    const path = api(hotel, `/bookings/${booking.id}/deposit`);
    const refused = await t.http.post(path).set(as(hotel.accessToken)).send({ kind: 'hold', amount: '1000' });
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('no_gateway');
    await t.http.post(path).set(as(hotel.accessToken)).send({ kind: 'cash', amount: '1000' }).expect(201);
  });
});

describe('charged deposit', () => {
  it('is refunded in parts, never above what was paid, until nothing remains', async () => {
    const s = await stay();
    await createDeposit(s, { kind: 'yookassa_charge', amount: '6000' });
    await fake.pay(await confirmationUrlOf(s), 'success');
    await depositWhen(s, 'paid', (d) => d.status === 'paid');

    const refund = (body: Record<string, unknown>, key?: string) => {
      const request = t.http.post(`${s.depositPath}/refund`).set(as(s.hotel.accessToken));
      return (key ? request.set('Idempotency-Key', key) : request).send(body);
    };
    expect((await refund({ amount: '1000' }, 'refund-1')).status).toBe(202);
    await depositWhen(s, 'partially refunded', (d) => d.status === 'partially_refunded' && !d.pending_operation);
    expect((await refund({ amount: '1000' }, 'refund-1')).status).toBe(202);
    const tooMuch = await refund({ amount: '5000.01' });
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.body.code).toBe('refund_too_large');
    expect((await depositOf(s)).refunded_amount).toBe('1000.00');

    expect((await refund({})).status).toBe(202);
    const refunded = await depositWhen(s, 'refunded', (d) => d.status === 'refunded');
    expect(refunded.refunded_amount).toBe('6000.00');
    expect(refunded.refunds.map((r: { amount: string; status: string }) => [r.amount, r.status])).toEqual([
      ['1000.00', 'succeeded'],
      ['5000.00', 'succeeded'],
    ]);
    const [atProvider] = await fake.payments(s.shopId);
    expect(atProvider.payment.refunded_amount).toMatchObject({ value: '6000.00' });
    expect(atProvider.refunds).toHaveLength(2);
  });

  it('is what a hold becomes for a stay above the long-stay threshold', async () => {
    const s = await stay(
      {},
      { check_in: localDay(0), check_out: localDay(10) },
      { long_stay_charge_enabled: true, long_stay_threshold_days: 6 },
    );
    const deposit = await createDeposit(s, { kind: 'hold', amount: '10000' });
    expect(deposit.kind).toBe('yookassa_charge');
  });
});

describe('online payment of a booking', () => {
  it('becomes one payment row of the booking and confirms an online inquiry, however often the provider notifies', async () => {
    const s = await stay({ auto_confirm_on_payment: true }, { source: 'online', status: 'inquiry' });
    const path = api(s.hotel, `/bookings/${s.booking.id}/online-payments`);
    const created = await t.http.post(path).set(as(s.hotel.accessToken)).send({}).expect(201);
    expect(created.body).toMatchObject({ amount: s.booking.price, status: 'pending' });
    const pending = await until(
      async () => {
        const { body } = await t.http.get(path).set(as(s.hotel.accessToken)).expect(200);
        return body[0].confirmation_url && body[0];
      },
      { what: 'the payment page', intervalMs: 100 },
    );
    await fake.pay(pending.confirmation_url, 'success');
    await fake.notifyAgain(s.shopId, pending.provider_payment_id, 'payment.succeeded', 5);
    const booking = await until(
      async () => {
        const { body } = await t.http.get(api(s.hotel, `/bookings/${s.booking.id}`)).set(as(s.hotel.accessToken));
        return body.status === 'confirmed' && body;
      },
      { what: 'the booking confirmed', intervalMs: 100 },
    );
    expect(booking.paid_amount).toBe(s.booking.price);
    const payments = await t.http
      .get(api(s.hotel, `/bookings/${s.booking.id}/payments`))
      .set(as(s.hotel.accessToken))
      .expect(200);
    expect(payments.body).toHaveLength(1);
    expect(payments.body[0]).toMatchObject({ method: 'online', amount: s.booking.price });
  });

  it('left unpaid expires, and the unpaid online booking with it', async () => {
    const s = await stay({}, { source: 'online', status: 'inquiry' });
    const path = api(s.hotel, `/bookings/${s.booking.id}/online-payments`);
    await quick.http.post(path).set(as(s.hotel.accessToken)).send({ amount: '100' }).expect(201);
    const booking = await until(
      async () => {
        const { body } = await t.http.get(api(s.hotel, `/bookings/${s.booking.id}`)).set(as(s.hotel.accessToken));
        return body.status === 'cancelled' && body;
      },
      { what: 'the booking expired', intervalMs: 200 },
    );
    expect(booking.cancel_reason).toBe('not_paid_online');
    const { body } = await t.http.get(path).set(as(s.hotel.accessToken)).expect(200);
    expect(body[0]).toMatchObject({ status: 'canceled', cancel_reason: 'not_paid' });
  });
});

describe('online payment of a booking that staff move meanwhile', () => {
  /** Re-reads the provider every 10 minutes only: with a shop that notifies no one, its steps are run by the test. */
  let still: TestApp;
  beforeAll(() => {
    still = createTestApp({ PAYMENT_POLL_INTERVAL_MS: '600000' });
  });
  afterAll(() => still.close());
  afterEach(() => jest.restoreAllMocks());

  // As the worker registers them: behind the activity boundary, where a refusal fails the workflow for good.
  const steps = () =>
    moduleActivities(billingModule, still.services.billing, {} as never, {} as never) as BookingPaymentActivities;

  /** An online inquiry and its online payment at a shop that notifies no one, created at the provider. */
  async function onlinePayment() {
    const s = await stay({ auto_confirm_on_payment: true }, { source: 'online', status: 'inquiry' });
    await fake.setWebhook(s.shopId, null);
    const path = api(s.hotel, `/bookings/${s.booking.id}/online-payments`);
    await still.http.post(path).set(as(s.hotel.accessToken)).send({}).expect(201);
    const pending = await until(
      async () => {
        const { body } = await t.http.get(path).set(as(s.hotel.accessToken)).expect(200);
        return body[0].confirmation_url && body[0];
      },
      { what: 'the payment page', intervalMs: 100 },
    );
    return { s, path, pending };
  }

  /** Staff cancel the booking after the payment's look at it, before its own move takes the booking's lock. */
  function staffCancelFirst(s: Stay, move: 'confirm' | 'cancel') {
    const { lifecycle } = still.services.bookings;
    const original = lifecycle[move] as (...args: unknown[]) => Promise<unknown>;
    jest.spyOn(lifecycle, move).mockImplementationOnce(async (...args: unknown[]) => {
      await setStatus(s, 'cancelled');
      return original(...args) as never;
    });
  }

  const bookingOf = async (s: Stay) =>
    (
      await t.http
        .get(api(s.hotel, `/bookings/${s.booking.id}`))
        .set(as(s.hotel.accessToken))
        .expect(200)
    ).body;

  it('paid while staff cancel the inquiry: the payment is recorded and paid, the booking stays cancelled', async () => {
    const { s, path, pending } = await onlinePayment();
    await fake.pay(pending.confirmation_url, 'success');
    staffCancelFirst(s, 'confirm');
    expect(await steps().syncBookingPayment(s.hotel.hotelId, pending.id)).toBe('paid');
    expect(await bookingOf(s)).toMatchObject({ status: 'cancelled', paid_amount: s.booking.price });
    const payments = await t.http
      .get(api(s.hotel, `/bookings/${s.booking.id}/payments`))
      .set(as(s.hotel.accessToken))
      .expect(200);
    expect(payments.body).toEqual([expect.objectContaining({ method: 'online', amount: s.booking.price })]);
    const { body } = await t.http.get(path).set(as(s.hotel.accessToken)).expect(200);
    expect(body[0]).toMatchObject({ status: 'succeeded' });
  });

  it("given up while staff cancel the inquiry: the payment fails, the booking keeps the staff's cancel", async () => {
    const { s, path, pending } = await onlinePayment();
    staffCancelFirst(s, 'cancel');
    expect(await steps().expireBookingPayment(s.hotel.hotelId, pending.id)).toBe('failed');
    const booking = await bookingOf(s);
    expect(booking.status).toBe('cancelled');
    expect(booking.cancel_reason).not.toBe('not_paid_online');
    const { body } = await t.http.get(path).set(as(s.hotel.accessToken)).expect(200);
    expect(body[0]).toMatchObject({ status: 'canceled', cancel_reason: 'not_paid' });
  });

  it('paid when the booking can record no more: the step fails for good and staff are told to record it', async () => {
    const { s, path, pending } = await onlinePayment();
    await fake.pay(pending.confirmation_url, 'success');
    // What the booking's payments add up to is at the column's limit: one more payment does not fit.
    await t.db('bookings').where({ id: s.booking.id }).update({ paid_amount: '9999999999.99' });
    await expect(steps().syncBookingPayment(s.hotel.hotelId, pending.id)).rejects.toMatchObject({
      nonRetryable: true,
    });
    const { body } = await t.http.get(path).set(as(s.hotel.accessToken)).expect(200);
    expect(body[0]).toMatchObject({ status: 'pending' });
    const notices = await t.http
      .get(`/api/hotels/${s.hotel.slug}/notifications`)
      .set(as(s.hotel.accessToken))
      .expect(200);
    const unrecorded = notices.body.items.filter((n: { title: string }) =>
      n.title.includes('получена, но не записана'),
    );
    expect(unrecorded).toEqual([
      expect.objectContaining({
        type: 'payment_received',
        data: expect.objectContaining({ online_payment_id: pending.id }),
      }),
    ]);
  });
});
