import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { Client, Connection } from '@temporalio/client';
import { createDb, type Db } from '../../src/platform/db/knex';
import { publishHotelEvent } from '../../src/platform/realtime/events';
import { reportGate } from '../helpers/gates';
import { messagesTo } from '../helpers/mail';
import { faultClient, type FaultOwner } from '../helpers/fault-client';
import { startFaultStack, type FaultStack } from '../helpers/processes';
import { connectStaff, type RealtimeMessage, type StaffClient } from '../helpers/realtime';
import { pace, until } from '../helpers/wait';
import { localDay } from '../helpers/dates';
import { startFakeReceiver, type FakeReceiver } from '../fakes/webhooks';
import { fakeChannexControl, startFakeChannex, type BookingRevision, type FakeChannex } from '../fakes/channex';

/**
 * Fault injection on a private stack (own database, Temporal dev server with a SQLite file, worker and API
 * processes): bookings run through the API while the worker is SIGKILLed and the Temporal server restarted; then
 * the API is stopped with SIGTERM under keep-alive load while a realtime client is connected.
 */

jest.setTimeout(200_000);

const FLOWS = 30;
const EXTRA_REGISTRATIONS = 6;

let stack: FaultStack | undefined;
let db: Db | undefined;
let temporal: Connection | undefined;
let receiver: FakeReceiver | undefined;
let channex: FakeChannex | undefined;
/** The webhook subscription the workload's bookings are delivered to (its receiver path). */
const HOOK_PATH = '/faults';
const sockets: StaffClient[] = [];

type Owner = FaultOwner;

const { call, expectStatus, register, registerAndSignIn } = faultClient(
  () => stack!,
  () => db!,
);

async function withDeadline<T>(what: string, work: Promise<T>, deadline: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what}: deadline passed`)), Math.max(0, deadline - Date.now()));
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Waits until every outbox message committed so far is delivered: the worker's relay and Temporal are at work. */
async function outboxCaughtUp(what: string, deadline: number): Promise<void> {
  const { last } = (await db!('outbox').max('id as last').first()) as { last: string | null };
  await until(
    async () => last === null || !(await db!('outbox').where('id', '<=', last).whereNull('delivered_at').first('id')),
    { what, timeoutMs: deadline - Date.now(), intervalMs: 250 },
  );
}

beforeAll(async () => {
  stack = await startFaultStack('faults');
  // The webhook receiver listens on 127.0.0.1: this stack's API and worker may call it.
  stack.env.ALLOW_PRIVATE_OUTBOUND = 'true';
  receiver = await startFakeReceiver();
  // A Channex of this stack's own.
  channex = await startFakeChannex();
  stack.env.CHANNEX_API_URL = channex.apiUrl;
  db = createDb(stack.databaseUrl, { role: 'migrations', poolMax: 5 });
  await Promise.all([stack.startWorker(), stack.startApi()]);
}, 150_000);

afterAll(async () => {
  await Promise.allSettled(sockets.map((socket) => socket.close()));
  await temporal?.close().catch(() => undefined);
  await db?.destroy();
  await stack?.stop();
  await receiver?.close();
  await channex?.close();
}, 60_000);

describe('fault injection', () => {
  let owner: Owner;
  const guestEmail = (i: number) => `faults-guest-${i}-${owner.userId.slice(0, 8)}@example.test`;
  const bookingIds: string[] = [];
  const registered: { email: string; userId: string }[] = [];

  it('worker SIGKILLs and a Temporal restart during the workload: every flow ends, no side effect lost or doubled', async () => {
    owner = await registerAndSignIn();
    registered.push({ email: owner.email, userId: owner.userId });
    const hotelApi = `/api/hotels/${owner.slug}`;
    const hook = await expectStatus(
      201,
      call('POST', `${hotelApi}/webhooks`, owner.token, {
        endpoint: receiver!.url(HOOK_PATH),
        event_types: ['booking_created', 'booking_updated'],
      }),
    );
    receiver!.trust(HOOK_PATH, [hook.secret as string]);
    const category = await expectStatus(
      201,
      call('POST', `${hotelApi}/room-categories`, owner.token, { name: 'Faults', base_price: 3000 }),
    );
    const rooms: string[] = [];
    for (let i = 0; i < FLOWS + 4; i++) {
      const room = await expectStatus(
        201,
        call('POST', `${hotelApi}/rooms`, owner.token, { number: `F${i}`, category_id: category.id }),
      );
      rooms.push(room.id as string);
    }
    await expectStatus(
      200,
      call('PATCH', `${hotelApi}/settings`, owner.token, { auto_checkout: true, auto_checkout_hours: 0 }),
    );
    // Every stay earns points and its guest is invited to review it: the booking workflow's steps after the
    // check-out, besides the guest's confirmation e-mail.
    await expectStatus(200, call('PATCH', `${hotelApi}/review-settings`, owner.token, { invitations_enabled: true }));
    await expectStatus(
      200,
      call('PATCH', `${hotelApi}/loyalty/settings`, owner.token, {
        enabled: true,
        tiers: [{ name: 'Базовый', threshold: 0, earn_rate: 5 }],
      }),
    );

    // The workload: a booking created, checked in and checked out every ~0.7 s, several in flight at once. Its pauses
    // pace it like a front desk at work; they wait for nothing.
    const failures: string[] = [];
    const flow = async (i: number) => {
      const created = await expectStatus(
        201,
        call(
          'POST',
          `${hotelApi}/bookings`,
          owner.token,
          {
            room_id: rooms[i],
            check_in: localDay(-1),
            check_out: localDay(1),
            guest_last_name: `Гость${i}`,
            guest_first_name: 'Тест',
            guest_phone: '+79990001122',
            // An online booking with an address: its guest gets the confirmation e-mail from its workflow.
            source: 'online',
            guest_email: guestEmail(i),
          },
          { 'Idempotency-Key': randomUUID() },
        ),
      );
      bookingIds.push(created.id as string);
      await pace(500 + Math.random() * 1000);
      await expectStatus(
        200,
        call('PATCH', `${hotelApi}/bookings/${created.id}`, owner.token, { status: 'checked_in' }),
      );
      await pace(500 + Math.random() * 1000);
      await expectStatus(
        200,
        call('PATCH', `${hotelApi}/bookings/${created.id}`, owner.token, { status: 'checked_out' }),
      );
    };
    const workload = (async () => {
      const running: Promise<void>[] = [];
      for (let i = 0; i < FLOWS; i++) {
        running.push(flow(i).catch((error: Error) => void failures.push(`flow ${i}: ${error.message}`)));
        if (i % 5 === 2 && registered.length <= EXTRA_REGISTRATIONS) {
          running.push(
            register().then(
              (account) => void registered.push(account),
              (error: Error) => void failures.push(`registration: ${error.message}`),
            ),
          );
        }
        await pace(700);
      }
      await Promise.all(running);
    })();

    // The faults, one after the other while the workload runs: the first once bookings are in flight, each next one
    // once the system is at work again (what was committed meanwhile has reached Temporal).
    let workerKills = 0;
    let lastKillAt = new Date(0);
    let temporalRestarts = 0;
    const faults = (async () => {
      await until(() => bookingIds.length >= 2, { what: 'the workload under way', timeoutMs: 30_000 });
      await stack!.killWorker();
      lastKillAt = new Date();
      workerKills++;
      await stack!.startWorker();
      await outboxCaughtUp('the restarted worker relaying the outbox', Date.now() + 60_000);
      await stack!.restartTemporal();
      temporalRestarts++;
      await outboxCaughtUp('the outbox relayed to the restarted Temporal', Date.now() + 60_000);
      await stack!.killWorker();
      lastKillAt = new Date();
      workerKills++;
      await stack!.startWorker();
    })();
    await Promise.all([workload, faults]);
    if (failures.length > 0) {
      throw new Error(`${failures.join('\n')}\n--- API log:\n${stack!.api?.output().slice(-6000)}`);
    }
    expect(bookingIds).toHaveLength(FLOWS);
    expect(registered).toHaveLength(EXTRA_REGISTRATIONS + 1);

    // Afterwards, with a deadline: every workflow reaches its end.
    temporal = await Connection.connect({ address: stack!.temporalAddress });
    const client = new Client({ connection: temporal });
    const workloadEnd = Date.now();
    const deadline = workloadEnd + 110_000;
    // The relay may still hold starts (it came back with the last restarted worker), and result() answers "workflow
    // not found" at once for a workflow not started yet instead of waiting: first every message is delivered.
    await outboxCaughtUp('outbox delivered', deadline);
    const results = await withDeadline(
      'booking workflows',
      Promise.all(bookingIds.map((id) => client.workflow.getHandle(`booking:${id}`).result() as Promise<string>)),
      deadline,
    ).catch((error: Error) => {
      throw new Error(`${error.message}\n--- worker log:\n${stack!.worker?.output().slice(-6000)}`);
    });
    const catchUpSeconds = ((Date.now() - workloadEnd) / 1000).toFixed(1);
    const emailWorkflows = (
      await db!('outbox').whereRaw("message->>'workflowType' = 'accountEmail'").select('message')
    ).map((row: { message: { workflowId: string } }) => row.message.workflowId);
    expect(emailWorkflows).toHaveLength(registered.length);
    await withDeadline(
      'e-mail workflows',
      Promise.all(emailWorkflows.map((id) => client.workflow.getHandle(id).result())),
      deadline,
    );

    // Runs per booking workflow: a signal delivered twice to a finished workflow would start a second run.
    const runs = new Map<string, number>();
    for await (const execution of client.workflow.list({ query: "WorkflowType = 'bookingLife'" })) {
      runs.set(execution.workflowId, (runs.get(execution.workflowId) ?? 0) + 1);
    }

    const created = (await db!('notifications')
      .where({ hotel_id: owner.hotelId, type: 'booking_created' })
      .select(db!.raw("data->>'booking_id' AS booking_id"))) as { booking_id: string }[];
    const turnovers = (await db!('housekeeping_tasks')
      .whereIn('booking_id', bookingIds)
      .andWhere({ source: 'checkout' })
      .select('booking_id')) as { booking_id: string }[];
    const mails = await Promise.all(registered.map(async (account) => (await messagesTo(account.email)).length));
    const guestInboxes = await Promise.all(bookingIds.map((_id, i) => messagesTo(guestEmail(i))));
    const countOf = (prefix: string) =>
      guestInboxes.map((inbox) => inbox.filter((mail) => mail.subject.startsWith(prefix)).length);
    // A guest's e-mail is never sent twice: one whose attempt was killed between its claim and the relay's answer is
    // in doubt (claimed, never marked sent) and stays unsent by design; it is reported, not counted lost.
    const confirmationsInDoubt = new Set(
      (await db!('mail_claims')
        .whereIn(
          'key',
          bookingIds.map((id) => `guest-email:${owner.hotelId}:${id}:confirmed`),
        )
        .whereNull('sent_at')
        // Only an attempt a kill cut short can leave an e-mail in doubt: one claimed after the last kill is a defect.
        .where('claimed_at', '<=', lastKillAt)
        .pluck('key')) as string[],
    );
    const invitationsInDoubt = new Set(
      (await db!('review_invitations')
        .whereIn('booking_id', bookingIds)
        .whereNull('sent_at')
        // Only an attempt a kill cut short can leave an e-mail in doubt: one claimed after the last kill is a defect.
        .where('claimed_at', '<=', lastKillAt)
        .pluck('booking_id')) as string[],
    );
    const inDoubt = confirmationsInDoubt.size + invitationsInDoubt.size;
    const confirmations = countOf('Бронирование подтверждено').map((n, i) =>
      n === 0 && confirmationsInDoubt.has(`guest-email:${owner.hotelId}:${bookingIds[i]}:confirmed`) ? 1 : n,
    );
    const invitations = countOf('Как прошло ваше проживание').map((n, i) =>
      n === 0 && invitationsInDoubt.has(bookingIds[i]) ? 1 : n,
    );
    const accruals = (await db!('loyalty_entries')
      .whereIn('booking_id', bookingIds)
      .andWhere({ reason: 'stay' })
      .select('booking_id')) as { booking_id: string }[];

    const countBy = (ids: string[]) => bookingIds.map((id) => ids.filter((x) => x === id).length);
    const notificationCounts = countBy(created.map((row) => row.booking_id));
    const turnoverCounts = countBy(turnovers.map((row) => row.booking_id));
    const accrualCounts = countBy(accruals.map((row) => row.booking_id));
    const runCounts = bookingIds.map((id) => runs.get(`booking:${id}`) ?? 0);
    const all = [
      ...notificationCounts,
      ...turnoverCounts,
      ...mails,
      ...confirmations,
      ...invitations,
      ...accrualCounts,
    ];
    const lost = all.filter((n) => n === 0).length + results.filter((r) => r !== 'checked_out').length;
    const duplicated = all.filter((n) => n > 1).length;
    const extraRuns = runCounts.filter((n) => n > 1).length;
    const completed = results.filter((r) => r === 'checked_out').length;
    reportGate(
      'faults',
      `${workerKills} worker kills, ${temporalRestarts} Temporal restarts, ${completed} flows completed, ` +
        `${lost} lost, ${duplicated} duplicated; all flows ended ${catchUpSeconds} s after the workload` +
        ` (${FLOWS} bookings: notifications, turnover tasks, confirmation e-mails, loyalty accruals, review ` +
        `invitations; ${mails.length} account e-mails; ${inDoubt} guest e-mails in doubt` +
        `${extraRuns ? `; ${extraRuns} workflows with extra runs` : ''})`,
    );
    expect(results).toEqual(Array(FLOWS).fill('checked_out'));
    expect(notificationCounts).toEqual(Array(FLOWS).fill(1));
    expect(turnoverCounts).toEqual(Array(FLOWS).fill(1));
    expect(mails).toEqual(Array(registered.length).fill(1));
    expect(confirmations).toEqual(Array(FLOWS).fill(1));
    expect(invitations).toEqual(Array(FLOWS).fill(1));
    expect(guestInboxes.map((inbox) => inbox.length).filter((n) => n > 2)).toEqual([]);
    expect(accrualCounts).toEqual(Array(FLOWS).fill(1));
    expect(runCounts).toEqual(Array(FLOWS).fill(1));
  });

  it('webhook delivery survives the worker kills and the Temporal restart: 0 lost, 0 out of order', async () => {
    // Every booking event of the workload, as the pull feed serves them (the same seq and payloads).
    const feed: number[] = [];
    for (let after = 0; ;) {
      const page = await expectStatus(
        200,
        call('GET', `/api/hotels/${owner.slug}/events?after=${after}&limit=500`, owner.token),
      );
      const items = page.items as { seq: number; type: string }[];
      feed.push(...items.filter((item) => item.type.startsWith('booking_')).map((item) => item.seq));
      if (items.length === 0) break;
      after = page.next_after as number;
    }
    expect(feed.length).toBeGreaterThanOrEqual(FLOWS * 3);
    await until(() => new Set(receiver!.received(HOOK_PATH).map((item) => item.seq)).size >= feed.length, {
      what: () => `${feed.length} webhook deliveries (${receiver!.received(HOOK_PATH).length} so far)`,
      timeoutMs: 90_000,
      intervalMs: 250,
    });
    const arrivals = receiver!.received(HOOK_PATH);
    // A duplicate (a kill between the receiver's 2xx and the cursor's move) repeats its webhook-id and its seq.
    const firstSeen = new Map<string, number>();
    for (const item of arrivals) {
      if (firstSeen.has(item.id)) expect(firstSeen.get(item.id)).toBe(item.seq);
      else firstSeen.set(item.id, item.seq);
    }
    const delivered = [...firstSeen.values()];
    const outOfOrder = delivered.filter((seq, i) => i > 0 && seq <= delivered[i - 1]).length;
    const lost = feed.filter((seq) => !delivered.includes(seq)).length;
    reportGate(
      'faults',
      `webhooks: ${delivered.length} events delivered through the kills and the restart, ${lost} lost, ` +
        `${outOfOrder} out of order, ${arrivals.length - delivered.length} duplicates (same webhook-id)`,
    );
    expect(lost).toBe(0);
    expect(outOfOrder).toBe(0);
    expect(delivered).toEqual(feed);
  });

  it("the relay keeps one workflow's messages in order and never restarts a finished workflow", async () => {
    const client = new Client({ connection: temporal! });
    const bookingId = randomUUID();
    const workflowId = `booking:${bookingId}`;
    const message = (status: string) => ({
      kind: 'signalWithStart',
      workflowType: 'bookingLife',
      workflowId,
      args: [{ hotelId: owner.hotelId, bookingId, status }],
      signal: 'statusChanged',
      signalArgs: [{ status, reason: 'manual' }],
      searchAttributes: { HotelSlug: owner.slug, BookingId: bookingId },
    });
    const enqueue = async (status: string, delaySeconds = 0) => {
      const [row] = (await db!('outbox')
        .insert({
          message: JSON.stringify(message(status)),
          attempts: delaySeconds ? 1 : 0,
          available_at: db!.raw('now() + make_interval(secs => ?)', [delaySeconds]),
        })
        .returning('id')) as { id: string }[];
      await db!.raw("SELECT pg_notify('outbox', '')");
      return row.id;
    };
    const deliveredAt = async (id: string) =>
      ((await db!('outbox').where({ id }).first('delivered_at')) as { delivered_at: Date | null }).delivered_at;

    // checked_in failed once (Temporal was away) and waits for its retry; checked_out, enqueued after it, must wait.
    const checkIn = await enqueue('checked_in', 3);
    const checkOut = await enqueue('checked_out');
    const deadline = Date.now() + 40_000;
    await until(async () => (await deliveredAt(checkIn)) && (await deliveredAt(checkOut)), {
      what: 'both delivered',
      timeoutMs: deadline - Date.now(),
    });
    expect((await deliveredAt(checkOut))!.getTime()).toBeGreaterThanOrEqual((await deliveredAt(checkIn))!.getTime());
    expect(await withDeadline('workflow', client.workflow.getHandle(workflowId).result(), deadline)).toBe(
      'checked_out',
    );

    // The same signal delivered again (the relay crashed before marking it): no second run of the finished workflow.
    const again = await enqueue('checked_out');
    await until(() => deliveredAt(again), { what: 'redelivered', timeoutMs: deadline - Date.now() });
    const runs: string[] = [];
    for await (const execution of client.workflow.list({ query: `WorkflowId = '${workflowId}'` })) {
      runs.push(execution.runId);
    }
    expect(runs).toHaveLength(1);
  });

  it('a night audit survives a worker kill and a Temporal restart midway: the day closed once, no line twice', async () => {
    const STAYS = 60;
    const hotel = await registerAndSignIn();
    const hotelApi = `/api/hotels/${hotel.slug}`;
    const category = await expectStatus(
      201,
      call('POST', `${hotelApi}/room-categories`, hotel.token, { name: 'Audit', base_price: 3000 }),
    );
    const stays: string[] = [];
    for (let i = 0; i < STAYS; i++) {
      const room = await expectStatus(
        201,
        call('POST', `${hotelApi}/rooms`, hotel.token, { number: `A${i}`, category_id: category.id }),
      );
      const booked = await expectStatus(
        201,
        call('POST', `${hotelApi}/bookings`, hotel.token, {
          room_id: room.id,
          check_in: localDay(-1),
          check_out: localDay(2),
          guest_last_name: `Аудит${i}`,
          guest_first_name: 'Тест',
          price: '3000',
        }),
      );
      await expectStatus(
        200,
        call('PATCH', `${hotelApi}/bookings/${booked.id}`, hotel.token, { status: 'checked_in' }),
      );
      stays.push(booked.id as string);
    }
    // Stays checked in before folios existed: the audit posts each one's night, the work the faults cut into.
    await db!('folio_lines').where({ hotel_id: hotel.hotelId, kind: 'room_night' }).delete();
    const day = localDay(-1);
    const nightLines = () =>
      db!('folio_lines').where({ hotel_id: hotel.hotelId, kind: 'room_night', business_date: day }).select('source');

    const run = await expectStatus(202, call('POST', `${hotelApi}/night-audit/runs`, hotel.token));
    await until(async () => (await nightLines()).length > 0, { what: 'the first night posted', intervalMs: 20 });
    await stack!.killWorker();
    const postedAtKill = (await nightLines()).length;
    await stack!.restartTemporal();
    await stack!.startWorker();
    await temporal?.close().catch(() => undefined);
    temporal = await Connection.connect({ address: stack!.temporalAddress });
    const result = await withDeadline(
      'the audit after the faults',
      new Client({ connection: temporal }).workflow.getHandle(run.workflow_id as string).result(),
      Date.now() + 180_000,
    );
    expect(result).toMatchObject({ businessDate: day, snapshots: 1 });

    const lines = await nightLines();
    expect(lines).toHaveLength(STAYS);
    expect(new Set(lines.map((line: { source: string }) => line.source)).size).toBe(STAYS);
    const closed = await db!.raw(
      "SELECT to_char(closed_through, 'YYYY-MM-DD') AS day FROM folio_settings WHERE hotel_id = ?",
      [hotel.hotelId],
    );
    expect(closed.rows[0].day).toBe(day);
    const snapshots = await db!('night_audit_snapshots')
      .where({ hotel_id: hotel.hotelId })
      .select('sold', 'room_revenue');
    expect(snapshots).toEqual([{ sold: STAYS, room_revenue: (STAYS * 1000).toFixed(2) }]);
    const runs = await db!('night_audit_runs').where({ hotel_id: hotel.hotelId }).select('status');
    expect(runs).toEqual([{ status: 'succeeded' }]);
    // The report at most once (an attempt killed between its claim and the relay's answer may lose it, never double it).
    const reports = (await messagesTo(hotel.email)).filter((message) => message.subject.includes(day));
    expect(reports.length).toBeLessThanOrEqual(1);
    reportGate(
      'faults',
      `night audit: ${postedAtKill} of ${STAYS} nights posted at the kill, the rest after, once each`,
    );
  }, 300_000);

  it('OTA revisions made while the worker is killed and Temporal restarted: 0 lost, 0 applied twice, all acked', async () => {
    const BOOKINGS = 16;
    const property = randomUUID();
    const control = fakeChannexControl(channex!.url);
    const opened = await control.openProperty(property, {
      api_key: `faults-intake-${property}`,
      room_types: [{ title: 'Faults', rate_plans: [{ title: 'BAR' }] }],
    });
    const [roomType] = opened.room_types;
    const hotel = await registerAndSignIn();
    const hotelApi = `/api/hotels/${hotel.slug}`;
    const category = await expectStatus(
      201,
      call('POST', `${hotelApi}/room-categories`, hotel.token, { name: 'Intake', base_price: 3000, capacity: 2 }),
    );
    for (let i = 0; i < BOOKINGS; i++)
      await expectStatus(
        201,
        call('POST', `${hotelApi}/rooms`, hotel.token, { number: `I${i}`, category_id: category.id }),
      );
    await expectStatus(
      201,
      call('POST', `${hotelApi}/channel-connection`, hotel.token, {
        provider: 'channex',
        api_key: `faults-intake-${property}`,
        property_id: property,
        room_types: [{ room_type_id: roomType.id, category_id: category.id }],
        rate_plans: [],
      }),
    );
    await expectStatus(200, call('PUT', `${hotelApi}/channel-intake/webhook`, hotel.token));
    const made: BookingRevision[] = [];
    const book = async (i: number) =>
      made.push(
        await control.makeRevision(property, {
          ota_reservation_code: `FLT${i}-${property.slice(0, 8)}`,
          arrival_date: localDay(20),
          departure_date: localDay(22),
          rooms: [{ room_type_id: roomType.id, rate_plan_id: roomType.rate_plans[0].id, adults: 1 }],
        }),
      );
    for (let i = 0; i < BOOKINGS / 2; i++) await book(i);
    await stack!.killWorker();
    for (let i = BOOKINGS / 2; i < BOOKINGS; i++) await book(i);
    // Of the first half: some stays made longer, some cancelled, while nothing takes them in.
    const later: BookingRevision[] = [];
    for (const revision of made.slice(0, 4))
      later.push(
        await control.makeRevision(property, {
          status: 'modified',
          booking_id: revision.booking_id,
          departure_date: localDay(23),
        }),
      );
    for (const revision of made.slice(4, 6))
      later.push(await control.makeRevision(property, { status: 'cancelled', booking_id: revision.booking_id }));
    await stack!.restartTemporal();
    await stack!.startWorker();
    await temporal?.close().catch(() => undefined);
    temporal = await Connection.connect({ address: stack!.temporalAddress });
    const all = [...made, ...later];
    await until(
      async () =>
        (await control.revisions(property)).filter((item) => item.acknowledge_status === 'acknowledged').length ===
        all.length,
      { what: `${all.length} revisions acknowledged`, timeoutMs: 180_000, intervalMs: 500 },
    );
    const bookings = await db!('bookings')
      .where({ hotel_id: hotel.hotelId, source: 'ota' })
      .select('status', 'check_out', 'notes');
    const recorded = await db!('channel_revisions').where({ hotel_id: hotel.hotelId }).select('revision_id', 'outcome');
    const lost = made.filter(
      (revision) => !bookings.some((row: { notes: string }) => row.notes.includes(revision.ota_reservation_code)),
    ).length;
    const twice = made.filter(
      (revision) =>
        bookings.filter((row: { notes: string }) => row.notes.includes(revision.ota_reservation_code)).length > 1,
    ).length;
    expect(lost).toBe(0);
    expect(twice).toBe(0);
    expect(recorded).toHaveLength(all.length);
    expect(recorded.every((row: { outcome: string }) => row.outcome === 'applied')).toBe(true);
    expect(bookings.filter((row: { status: string }) => row.status === 'cancelled')).toHaveLength(2);
    expect(
      bookings.filter((row: { check_out: string }) => String(row.check_out).startsWith(localDay(23))),
    ).toHaveLength(4);
    reportGate(
      'faults',
      `channel intake: ${all.length} revisions (${BOOKINGS} bookings) across the kill and the restart, ${lost} lost, ` +
        `${twice} applied twice, ${all.length} acknowledged`,
    );
  }, 300_000);

  it('a rolling release due while the worker is killed and Temporal restarted fires once, soon after its time', async () => {
    const hotel = await registerAndSignIn();
    const hotelApi = `/api/hotels/${hotel.slug}`;
    const category = await expectStatus(
      201,
      call('POST', `${hotelApi}/room-categories`, hotel.token, { name: 'Group', base_price: 3000 }),
    );
    for (let i = 0; i < 3; i++)
      await expectStatus(
        201,
        call('POST', `${hotelApi}/rooms`, hotel.token, { number: `G${i}`, category_id: category.id }),
      );
    // Two units of the night after tomorrow, released a day before it: at the start of tomorrow, hotel time (read as
    // the release reads it).
    const night = localDay(2);
    const { rows } = await db!.raw(
      'SELECT extract(epoch FROM (?::date - 1)::timestamp AT TIME ZONE timezone) * 1000 AS at FROM hotels WHERE id = ?',
      [night, hotel.hotelId],
    );
    const releaseAt = Number(rows[0].at);
    // The worker restarted with its release clock ahead, so that this time comes in 75 s.
    await stack!.killWorker();
    const ahead = Math.round((releaseAt - Date.now() - 75_000) / 1000);
    const dueAt = releaseAt - ahead * 1000;
    stack!.env.BLOCK_RELEASE_CLOCK_AHEAD_SECONDS = String(ahead);
    await stack!.startWorker();
    const block = await expectStatus(
      201,
      call('POST', `${hotelApi}/blocks`, hotel.token, {
        name: 'Конференция',
        status: 'definite',
        allotment: [{ category_id: category.id, from: night, to: night, rooms: 2 }],
        release_kind: 'rolling',
        release_days: 1,
      }),
    );
    const guest = { guest_last_name: 'Группова', guest_first_name: 'Анна' };
    await expectStatus(
      201,
      call('POST', `${hotelApi}/blocks/${block.id}/pickup`, hotel.token, {
        guests: [{ category_id: category.id, check_in: night, check_out: localDay(3), ...guest }],
      }),
    );
    // The workflow asleep until the release: its timer started, nothing released yet.
    temporal ??= await Connection.connect({ address: stack!.temporalAddress });
    const workflowId = `block-release:${block.id}`;
    await outboxCaughtUp('the release workflow started', Date.now() + 30_000);
    const history = async () =>
      (await new Client({ connection: temporal! }).workflow.getHandle(workflowId).fetchHistory()).events ?? [];
    await until(async () => (await history()).some((event) => event.timerStartedEventAttributes), {
      what: 'the release asleep until its time',
      timeoutMs: 40_000,
      intervalMs: 250,
    });
    expect(Date.now()).toBeLessThan(dueAt);
    const asleep = await expectStatus(200, call('GET', `${hotelApi}/blocks/${block.id}`, hotel.token));
    expect(asleep.nights).toEqual([expect.objectContaining({ night, rooms: 2, released: 0, picked_up: 1 })]);

    // The worker killed and Temporal restarted before the release time; the worker back only once it has passed.
    await stack!.killWorker();
    const killedBefore = ((dueAt - Date.now()) / 1000).toFixed(0);
    await stack!.restartTemporal();
    await temporal?.close().catch(() => undefined);
    temporal = await Connection.connect({ address: stack!.temporalAddress });
    await pace(Math.max(0, dueAt - Date.now()) + 1000);
    await stack!.startWorker();
    const workerBackAfter = ((Date.now() - dueAt) / 1000).toFixed(1);
    // Tests only: the next worker started runs on the database's clock again.
    delete stack!.env.BLOCK_RELEASE_CLOCK_AHEAD_SECONDS;

    const notices = () =>
      db!('notifications').where({ hotel_id: hotel.hotelId, type: 'block_released' }).select('created_at');
    await until(async () => (await notices()).length > 0, {
      what: 'the release after the restarts',
      timeoutMs: 120_000,
      intervalMs: 250,
    });
    const result = await withDeadline(
      'the release workflow',
      new Client({ connection: temporal }).workflow.getHandle(workflowId).result(),
      Date.now() + 60_000,
    );
    expect(result).toBe('released');
    const [notice] = await notices();
    const firedAfter = ((new Date(notice.created_at).getTime() - dueAt) / 1000).toFixed(1);
    const read = await expectStatus(200, call('GET', `${hotelApi}/blocks/${block.id}`, hotel.token));
    const report = await expectStatus(200, call('GET', `${hotelApi}/blocks/${block.id}/report`, hotel.token));
    const runs: string[] = [];
    for await (const execution of new Client({ connection: temporal }).workflow.list({
      query: `WorkflowId = '${workflowId}'`,
    }))
      runs.push(execution.runId);
    reportGate(
      'faults',
      `block release: rolling, due ${killedBefore} s after the worker was killed, across a Temporal restart; fired ` +
        `${firedAfter} s after its time (the worker polling again ${workerBackAfter} s after it), ${(await notices()).length} notice, ` +
        `${runs.length} run`,
    );
    const expected = { night, rooms: 1, released: 1, picked_up: 1, free: 0 };
    expect(read.nights).toEqual([expect.objectContaining(expected)]);
    expect(report).toEqual([expect.objectContaining(expected)]);
    expect(await notices()).toHaveLength(1);
    expect(runs).toHaveLength(1);
  }, 300_000);

  it('SIGTERM under keep-alive load: no in-flight request fails; a realtime client that reconnects misses nothing', async () => {
    const hotelApi = `/api/hotels/${owner.slug}`;
    const url = new URL(stack!.apiUrl);
    // Targets for the load (PATCHes emit booking_updated), and an overdue stay the worker will check out.
    const category = await expectStatus(
      201,
      call('POST', `${hotelApi}/room-categories`, owner.token, { name: 'Load', base_price: 3000 }),
    );
    const targets: string[] = [];
    for (let i = 0; i < 6; i++) {
      const room = await expectStatus(
        201,
        call('POST', `${hotelApi}/rooms`, owner.token, { number: `L${i}`, category_id: category.id }),
      );
      const booking = await expectStatus(
        201,
        call('POST', `${hotelApi}/bookings`, owner.token, {
          room_id: room.id,
          check_in: localDay(i === 0 ? -3 : 10),
          check_out: localDay(i === 0 ? -1 : 12),
          guest_last_name: `Нагрузка${i}`,
          guest_first_name: 'Тест',
        }),
      );
      targets.push(booking.id as string);
    }
    const overdue = targets.shift()!;
    await expectStatus(200, call('PATCH', `${hotelApi}/bookings/${overdue}`, owner.token, { status: 'checked_in' }));

    const wsUrl = `ws://${url.host}/ws`;
    const socket = await connectStaff(wsUrl, owner.token);
    sockets.push(socket);
    await socket.next((m) => m.type === 'connected');

    // 20 keep-alive clients: GET and PATCH, until the server refuses new connections.
    type Outcome = 'completed' | 'refused' | 'idle-closed' | 'failed';
    const tally: Record<Outcome, number> = { completed: 0, refused: 0, 'idle-closed': 0, failed: 0 };
    const failures: string[] = [];
    const attempt = (agent: http.Agent, method: string, path: string, body?: unknown) =>
      new Promise<Outcome>((resolve) => {
        const payload = body === undefined ? undefined : JSON.stringify(body);
        const req = http.request({
          host: url.hostname,
          port: url.port,
          method,
          path,
          agent,
          headers: {
            authorization: `Bearer ${owner.token}`,
            ...(payload && { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
          },
        });
        let responded = false;
        req.setTimeout(20_000, () => req.destroy(new Error('timeout')));
        req.on('response', (res) => {
          responded = true;
          res.resume();
          res.on('end', () => {
            const ok = res.statusCode !== undefined && res.statusCode < 500;
            if (!ok) failures.push(`${method} ${path}: ${res.statusCode}`);
            resolve(ok ? 'completed' : 'failed');
          });
          res.on('aborted', () => {
            failures.push(`${method} ${path}: response cut off`);
            resolve('failed');
          });
        });
        req.on('error', (error: NodeJS.ErrnoException) => {
          if (responded) return;
          if (error.code === 'ECONNREFUSED') return resolve('refused');
          // The server closed an idle keep-alive connection as this request went out: it was never read (the
          // server closes only idle connections), and HTTP lets the client retry it on a new connection.
          if (req.reusedSocket && (error.code === 'ECONNRESET' || error.message === 'socket hang up')) {
            return resolve('idle-closed');
          }
          // A new connection the kernel had queued as the listener closed (or the server accepted and closed before
          // reading a byte): reset unread, as the ones that came a moment later are refused. The server never drops a
          // request it has read (it drains them), so nothing was processed.
          if (!req.reusedSocket && error.code === 'ECONNRESET') return resolve('refused');
          failures.push(`${method} ${path}: ${error.code ?? error.message} (reused socket: ${req.reusedSocket})`);
          resolve('failed');
        });
        req.end(payload);
      });

    let stopLoad = false;
    /** Answers each client has had on its keep-alive connection. */
    const answered = Array<number>(20).fill(0);
    const loadClients = answered.map(async (_, i) => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      try {
        // Mostly reads; one PATCH in eight (each emits an event: the replay below must stay under 1000).
        for (let n = 0; n < 2000 && !stopLoad; n++) {
          const target = targets[(i + n) % targets.length];
          // Think time between a client's requests (load pacing).
          if (n > 0) await pace(20);
          const outcome =
            n % 8 !== 0
              ? await attempt(agent, 'GET', `${hotelApi}/bookings/${target}`)
              : await attempt(agent, 'PATCH', `${hotelApi}/bookings/${target}`, { notes: `client ${i} #${n}` });
          tally[outcome]++;
          if (outcome === 'completed') answered[i]++;
          if (outcome === 'refused') break;
        }
      } finally {
        agent.destroy();
      }
    });

    // Under load: every client has reused its keep-alive connection, so each holds one open when SIGTERM comes.
    await until(() => answered.every((count) => count >= 2), {
      what: () => `every load client answered twice (answers: ${answered.join(', ')}; ${failures.join('; ')})`,
      timeoutMs: 30_000,
    });
    const api = stack!.api!;
    const exitCode = new Promise<number | null>((resolve) => api.process.child.once('exit', resolve));
    const sigtermAt = Date.now();
    api.process.child.kill('SIGTERM');
    const closed = await withDeadline('realtime close', socket.closed, Date.now() + 15_000);
    expect(closed.code).toBe(1001);
    expect(await withDeadline('API exit', exitCode, Date.now() + 30_000)).toBe(0);
    const drainMs = Date.now() - sigtermAt;
    // Well before the shutdown deadline (10 s), where connections with a request in flight would be cut: so every
    // connection the server closed was idle, and an error on a reused connection means the request was not read.
    expect(drainMs).toBeLessThan(5000);
    stopLoad = true;
    await withDeadline('load clients', Promise.all(loadClients), Date.now() + 30_000);
    const lastId = (socket.collected.at(-1) as RealtimeMessage & { id: number }).id;

    // While no API runs: events from the worker (the sweep checks the overdue stay out) and straight from the db.
    const sweep = await withDeadline(
      'auto-checkout sweep',
      new Client({ connection: temporal! }).workflow.execute('autoCheckoutSweep', {
        taskQueue: 'hotel',
        workflowId: `faults-auto-checkout-${randomUUID()}`,
      }),
      Date.now() + 60_000,
    );
    expect(sweep).toMatchObject({ checkedOut: 1 });
    for (let seq = 0; seq < 5; seq++) {
      await db!.transaction((trx) => publishHotelEvent(trx, owner.hotelId, { type: 'faults_tick', payload: { seq } }));
    }
    await until(
      () =>
        db!('notifications')
          .where({ hotel_id: owner.hotelId, type: 'booking_auto_checked_out' })
          .whereRaw("data->>'booking_id' = ?", [overdue])
          .first('id'),
      { what: 'auto-checkout notification', timeoutMs: 60_000 },
    );

    // A fresh API process on the same port; the client reconnects from the last id it received.
    await stack!.startApi();
    const again = await connectStaff(`${wsUrl}?since=${lastId}`, owner.token);
    sockets.push(again);
    const expected = (
      (await db!('realtime_events')
        .where({ hotel_id: owner.hotelId })
        .andWhere('id', '>', lastId)
        .orderBy('id')
        .select('id', 'type')) as { id: string; type: string }[]
    ).map((row) => ({ id: Number(row.id), type: row.type }));
    const timeline = `API exited ${drainMs} ms after SIGTERM; ${tally.completed} completed, ${tally.refused} refused after close, ${tally['idle-closed']} retried (idle keep-alive closed), ${tally.failed} failed`;
    const received = () =>
      again.collected
        .filter((m) => !['connected', 'pong'].includes(m.type))
        .map((m) => ({ id: (m as RealtimeMessage & { id: number }).id, type: m.type }));
    // Compared below, where a shortfall shows what is missing.
    await until(() => received().length >= expected.length, { what: 'replay', timeoutMs: 15_000 }).catch(
      () => undefined,
    );
    reportGate(
      'faults-sigterm',
      `${timeline}; ${expected.length} events replayed after restart (${
        socket.collected.filter((m) => m.type !== 'connected').length
      } live before)`,
    );
    expect(received()).toEqual(expected);
    expect(expected.map((e) => e.type)).toEqual(
      expect.arrayContaining(['booking_updated', 'housekeeping_task_created', 'notification:new', 'faults_tick']),
    );
    expect(failures).toEqual([]);
    expect(tally.failed).toBe(0);
    expect(tally.completed).toBeGreaterThan(20);
  });
});
