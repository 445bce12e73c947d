import { Client, Connection } from '@temporalio/client';
import type { Db } from '../../src/platform/db/knex';
import { fakeYooKassaControl, type FakeYooKassaControl } from '../../test/fakes/yookassa';
import { depositWorkflowId } from '../../workflows/contracts/deposits';
import { providerPaymentChangedSignal } from '../../workflows/contracts/payments';
import { call, registerConfirmedOwners, signIn } from './fixtures';
import { percentile } from './stats';

const DEPOSITS = 30;
const BURST_PAYMENTS = 20;
const DUPLICATES_PER_PAYMENT = 50;
/** How often the bench polls a deposit: faster than the desk's 5 s, so the figures show the service, not the poll. */
const POLL_MS = 25;
const HOLD_AMOUNT = '5000';
const NOTIFICATIONS_PATH = '/api/payments/yookassa/notifications';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

interface Deposit {
  id: string;
  status: string;
  confirmation_url: string | null;
  provider_payment_id: string | null;
  pending_operation: string | null;
  captured_amount: string;
  refunded_amount: string;
  refunds: unknown[];
}

/** A hotel with one booking and a YooKassa shop of its own, so the fake's payments of a shop are the deposit's. */
interface Desk {
  token: string;
  depositPath: string;
  shopId: string;
}

async function deskWithShop(baseUrl: string, email: string, fake: FakeYooKassaControl, shopId: string): Promise<Desk> {
  const { token, hotel } = await signIn(baseUrl, email);
  const create = (path: string, body: object) => call<{ id: string }>(baseUrl, 'POST', `${hotel}${path}`, token, body);
  const category = await create('/room-categories', { name: 'Bench', base_price: 4000 });
  const room = await create('/rooms', { number: '101', category_id: category.id });
  const booking = await create('/bookings', {
    room_id: room.id,
    check_in: day(1),
    check_out: day(3),
    guest_last_name: 'Bench',
    guest_first_name: 'Guest',
  });
  await fake.openShop(shopId, `bench-secret-${shopId}`, `${baseUrl}${NOTIFICATIONS_PATH}`);
  await create('/payment-gateways', { provider: 'yookassa', shop_id: shopId, secret_key: `bench-secret-${shopId}` });
  return { token, depositPath: `${hotel}/bookings/${booking.id}/deposit`, shopId };
}

async function depositWhen(baseUrl: string, desk: Desk, done: (deposit: Deposit) => boolean): Promise<Deposit> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const deposit = await call<Deposit>(baseUrl, 'GET', desk.depositPath, desk.token);
    if (done(deposit)) return deposit;
    if (Date.now() > deadline) throw new Error(`deposit ${deposit.id} stuck at ${deposit.status}`);
    await sleep(POLL_MS);
  }
}

const ms = (value: number) => `${value.toFixed(0)} ms`;
function summary(durations: number[]): string {
  const sorted = [...durations].sort((a, b) => a - b);
  return `p50 ${ms(percentile(sorted, 50))}, p95 ${ms(percentile(sorted, 95))}, max ${ms(sorted.at(-1) ?? NaN)}`;
}

/**
 * Each desk takes a hold and the guest pays it, one deposit at a time so that none waits behind another: the time
 * until the desk sees the payment page (outbox -> workflow -> provider) and the card hold (the fake's notification
 * -> the API -> a wake-up of the workflow -> re-read), as the desk's own polling sees them.
 */
async function holdLifecycle(baseUrl: string, desks: Desk[], fake: FakeYooKassaControl) {
  const toPage: number[] = [];
  const toHold: number[] = [];
  const held: Deposit[] = [];
  for (const desk of desks) {
    const created = performance.now();
    await call(baseUrl, 'POST', desk.depositPath, desk.token, { kind: 'hold', amount: HOLD_AMOUNT });
    const { confirmation_url } = await depositWhen(baseUrl, desk, (d) => Boolean(d.confirmation_url));
    const paid = performance.now();
    await fake.pay(confirmation_url!, 'success');
    held.push(await depositWhen(baseUrl, desk, (d) => d.status === 'hold_confirmed'));
    toPage.push(paid - created);
    toHold.push(performance.now() - paid);
  }
  const lines = [
    `deposits: ${desks.length} card holds of ${HOLD_AMOUNT} against the fake YooKassa, one at a time, ` +
      `polled every ${POLL_MS} ms`,
    `POST .../deposit -> confirmation_url visible:      ${summary(toPage)}`,
    `fake.pay -> hold_confirmed visible:                ${summary(toHold)}`,
    `total:                                             ${summary(toPage.map((page, i) => page + toHold[i]))}`,
  ];
  return { lines, held };
}

const workflowOf = (client: Client, depositId: string) => client.workflow.getHandle(depositWorkflowId(depositId));

/** The wake-ups the workflow was sent and the provider re-reads it made, from its history. */
async function wakeUpsAndReads(client: Client, depositId: string) {
  const history = await workflowOf(client, depositId).fetchHistory();
  const count = (matches: (event: NonNullable<typeof history.events>[number]) => boolean) =>
    (history.events ?? []).filter(matches).length;
  return {
    wakeUps: count((e) => e.workflowExecutionSignaledEventAttributes?.signalName === providerPaymentChangedSignal.name),
    reads: count((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'syncDepositPayment'),
  };
}

async function idle(client: Client, depositId: string): Promise<boolean> {
  const { raw } = await workflowOf(client, depositId).describe();
  return !raw.pendingActivities?.length && !raw.pendingWorkflowTask;
}

/** Until every notification has reached its workflow as a wake-up and every workflow has acted on it. */
async function untilAbsorbed(db: Db, client: Client, depositIds: string[]): Promise<void> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const [{ count }] = await db('outbox').whereNull('delivered_at').count({ count: '*' });
    if (Number(count) === 0 && (await Promise.all(depositIds.map((id) => idle(client, id)))).every(Boolean)) return;
    if (Date.now() > deadline) throw new Error('the notifications were not absorbed in time');
    await sleep(100);
  }
}

/** What happened to a held deposit beyond the hold itself: each is an effect a duplicate notification must not have. */
async function effectsBeyondTheHold(baseUrl: string, desk: Desk, fake: FakeYooKassaControl): Promise<string[]> {
  const deposit = await call<Deposit>(baseUrl, 'GET', desk.depositPath, desk.token);
  const atProvider = await fake.payments(desk.shopId);
  const effects: string[] = [];
  const where = `deposit ${deposit.id} (shop ${desk.shopId})`;
  if (deposit.status !== 'hold_confirmed' || deposit.pending_operation)
    effects.push(`${where}: ${deposit.status}, pending ${deposit.pending_operation}`);
  if (deposit.captured_amount !== '0.00') effects.push(`${where}: captured ${deposit.captured_amount}`);
  if (deposit.refunded_amount !== '0.00') effects.push(`${where}: refunded ${deposit.refunded_amount}`);
  if (deposit.refunds.length > 0) effects.push(`${where}: ${deposit.refunds.length} refund rows`);
  if (atProvider.length !== 1) effects.push(`${where}: ${atProvider.length} payments at the provider`);
  for (const { payment, refunds } of atProvider) {
    if (payment.id !== deposit.provider_payment_id) effects.push(`${where}: stray payment ${payment.id}`);
    if (payment.status !== 'waiting_for_capture') effects.push(`${where}: payment ${payment.status} at the provider`);
    if (refunds.length > 0) effects.push(`${where}: ${refunds.length} refunds at the provider`);
  }
  return effects;
}

/**
 * Duplicate notifications straight to the webhook, as a provider's redelivery storm would send them: 50 at once for
 * each held payment, every payment at once. Each must be answered 200, and none may change anything twice.
 */
async function webhookBurst(
  baseUrl: string,
  db: Db,
  client: Client,
  desks: Desk[],
  held: Deposit[],
  fake: FakeYooKassaControl,
) {
  const depositIds = held.map((deposit) => deposit.id);
  const before = await Promise.all(depositIds.map((id) => wakeUpsAndReads(client, id)));
  const latencies: number[] = [];
  const notify = async (paymentId: string) => {
    const sent = performance.now();
    const response = await fetch(`${baseUrl}${NOTIFICATIONS_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'notification', event: 'payment.waiting_for_capture', object: { id: paymentId } }),
    }).catch(() => undefined);
    await response?.arrayBuffer();
    latencies.push(performance.now() - sent);
    return response?.status === 200;
  };
  const started = performance.now();
  const answers = await Promise.all(
    held.flatMap((deposit) =>
      Array.from({ length: DUPLICATES_PER_PAYMENT }, () => notify(deposit.provider_payment_id!)),
    ),
  );
  const seconds = (performance.now() - started) / 1000;
  await untilAbsorbed(db, client, depositIds);
  const absorbedSeconds = (performance.now() - started) / 1000;
  const after = await Promise.all(depositIds.map((id) => wakeUpsAndReads(client, id)));
  const wakeUps = after.reduce((sum, counts, i) => sum + counts.wakeUps - before[i].wakeUps, 0);
  const reads = after.reduce((sum, counts, i) => sum + counts.reads - before[i].reads, 0);
  const effects = (await Promise.all(desks.map((desk) => effectsBeyondTheHold(baseUrl, desk, fake)))).flat();

  const accepted = answers.filter(Boolean).length;
  latencies.sort((a, b) => a - b);
  const perRequest = `p50 ${ms(percentile(latencies, 50))}, p99 ${ms(percentile(latencies, 99))}`;
  return [
    `webhook: ${held.length} held payments x ${DUPLICATES_PER_PAYMENT} concurrent duplicate notifications ` +
      `= ${answers.length}`,
    `POST ${NOTIFICATIONS_PATH}:     ${(accepted / seconds).toFixed(1)} accepted/s, ${accepted}/${answers.length} ` +
      `answered 200 in ${seconds.toFixed(2)} s, ${perRequest} per notification`,
    `absorbed (wake-ups delivered, workflows idle) ${absorbedSeconds.toFixed(1)} s after the first: ` +
      `${wakeUps} wake-ups, ${reads} provider re-reads`,
    `double effects: ${effects.length} (${held.length} deposits checked: hold_confirmed, nothing captured or ` +
      `refunded, one payment per shop waiting_for_capture, no refunds at the provider)`,
    ...effects.map((effect) => `  ${effect}`),
  ];
}

/**
 * The deposit lifecycle against the stack's fake YooKassa, and the webhook under duplicate notifications. The API and
 * the worker (workflows and the outbox relay) must be running.
 */
export async function benchDeposits(baseUrl: string, db: Db, fakeUrl: string, temporalAddress: string) {
  const fake = fakeYooKassaControl(fakeUrl);
  const owners = await registerConfirmedOwners(baseUrl, db, DEPOSITS);
  const desks = await Promise.all(owners.map((email, i) => deskWithShop(baseUrl, email, fake, String(800_000 + i))));
  const lifecycle = await holdLifecycle(baseUrl, desks, fake);
  const connection = await Connection.connect({ address: temporalAddress });
  try {
    const burst = await webhookBurst(
      baseUrl,
      db,
      new Client({ connection }),
      desks.slice(0, BURST_PAYMENTS),
      lifecycle.held.slice(0, BURST_PAYMENTS),
      fake,
    );
    return [...lifecycle.lines, ...burst];
  } finally {
    await connection.close();
  }
}
