import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, Runtime, Worker } from '@temporalio/worker';
import { searchAttributeKeys } from '../../src/platform/temporal/client';
import type { AccountActivities, StaffActivities } from '../../workflows/contracts/accounts';
import { invitationAcceptedSignal } from '../../workflows/contracts/accounts';
import type { LoyaltyActivities } from '../../workflows/contracts/loyalty';
import type { ReviewActivities } from '../../workflows/contracts/reviews';
import type { TvActivities } from '../../workflows/contracts/tv';
import type { BookingActivities, BookingAnnouncement, DueBookingRef } from '../../workflows/contracts/bookings';
import { bookingStatusSignal, movePlannedSignal } from '../../workflows/contracts/bookings';
import { until } from '../helpers/wait';
import {
  CHANNEL_CHANGED_SIGNAL,
  type ChannelActivities,
  type ChannelPushResult,
} from '../../workflows/contracts/channels';
import type { ChannelIntakeActivities } from '../../workflows/contracts/channel-intake';
import { WEBHOOK_WAKE_SIGNAL, type WebhookActivities, type WebhookRound } from '../../workflows/contracts/webhooks';

/**
 * The workflows' own logic, against the Temporal binary the dev script builds (a local dev server, in memory) with
 * activities replaced by recorders: no database, no mail, no worker process. Durations are arguments, so an
 * expiry takes a second here.
 */

const TEMPORAL_BINARY = process.env.TEMPORAL_CLI ?? path.resolve(__dirname, '../../.tools/bin/temporal');

let env: TestWorkflowEnvironment;
let worker: Worker;
let running: Promise<void>;
const taskQueue = `unit-${randomUUID()}`;

const announced: { bookingId: string; announcement: BookingAnnouncement }[] = [];
const guestEmails: { bookingId: string; kind: string }[] = [];
const calls: string[] = [];
const due: DueBookingRef[] = [
  { hotelId: 'h1', hotelSlug: 'hotel-one', bookingId: 'b-due-1' },
  { hotelId: 'h1', hotelSlug: 'hotel-one', bookingId: 'b-due-2' },
];

/** The planned moves carried out, in order. */
const carriedOut: { bookingId: string; roomId: string }[] = [];

const bookingActivities: BookingActivities = {
  async announceBooking(_hotelId, bookingId, announcement) {
    announced.push({ bookingId, announcement });
    return 1;
  },
  async sendGuestBookingEmail(_hotelId, bookingId, kind) {
    guestEmails.push({ bookingId, kind });
    return 'sent';
  },
  findNoShows: async () => due,
  // The second one was dealt with meanwhile (the booking moved on): the step says so and is not counted.
  cancelNoShow: async (ref) => (ref.bookingId === 'b-due-1' ? 'done' : 'skipped'),
  findOverdueStays: async () => due.slice(0, 1),
  autoCheckOut: async () => 'done',
  // A move into r2 is followed by one planned into r3 half a second later; the others plan nothing more.
  async carryOutPlannedMove(_hotelId, bookingId, plan) {
    carriedOut.push({ bookingId, roomId: plan.roomId });
    return plan.roomId === 'r2' ? { from: '2030-01-03', roomId: 'r3', at: Date.now() + 500 } : null;
  },
};

const tvPushes: { bookingId: string; event: string }[] = [];
const tvActivities: TvActivities = {
  async pushStayToTv({ bookingId, event }) {
    tvPushes.push({ bookingId, event });
    return 'ok';
  },
};

/** What followed each stay, in the order it happened: `points`, `delay`, `invite`. */
const afterStay: { bookingId: string; step: string }[] = [];
/** The delay the hotel's settings give a booking; null: no invitation (no address, opted out, reviews off). */
const delays = new Map<string, number | null>();
const afterStayActivities: LoyaltyActivities & ReviewActivities = {
  async accrueStayPoints(_hotelId, bookingId) {
    afterStay.push({ bookingId, step: 'points' });
    return 'accrued';
  },
  async reviewInvitationDelay(_hotelId, bookingId) {
    afterStay.push({ bookingId, step: 'delay' });
    return delays.get(bookingId) ?? null;
  },
  async sendReviewInvitation(_hotelId, bookingId) {
    afterStay.push({ bookingId, step: 'invite' });
    return 'sent';
  },
};
const stepsAfter = (bookingId: string) => afterStay.filter((s) => s.bookingId === bookingId).map((s) => s.step);

const accountActivities: AccountActivities & StaffActivities = {
  async handleAccountRequest(requestId) {
    calls.push(`request:${requestId}`);
    return requestId === 'known' ? 'link_sent' : 'nothing_to_send';
  },
  async sendAccountEmail(purpose, userId) {
    calls.push(`email:${purpose}:${userId}`);
    return 'sent';
  },
  async sendInvitationEmail(userId) {
    calls.push(`invite:${userId}`);
    return 'sent';
  },
  async expireInvitation(userId) {
    calls.push(`expire:${userId}`);
    return true;
  },
};

/** Each hotel's pushes as asked, and what its next pushes answer (then: disconnected). */
const channelPushes: Parameters<ChannelActivities['pushChannelAri']>[0][] = [];
const channelAnswers = new Map<string, (() => ChannelPushResult)[]>();
const channelActivities: ChannelActivities = {
  async pushChannelAri(input) {
    channelPushes.push(input);
    return channelAnswers.get(input.hotelId)?.shift()?.() ?? { status: 'gone', calls: 0 };
  },
};
const pushesOf = (hotelId: string) => channelPushes.filter((push) => push.hotelId === hotelId);
/** A connected hotel whose channel has nothing new: each round reads and applies nothing. */
const intakeActivities: ChannelIntakeActivities = {
  pullChannelRevisions: async () => ({ connected: true, applied: 0, duplicates: 0, superseded: 0, unplaced: 0 }),
  wakeChannelIntakes: async () => 0,
};

/** Each subscription's rounds, answered by the test when it lets them return. */
const webhookRounds = new Map<string, ((round: WebhookRound) => void)[]>();
const roundsOf = (subscriptionId: string) => webhookRounds.get(subscriptionId) ?? [];
const webhookActivities: WebhookActivities = {
  webhookState: async () => ({ status: 'active', retryHorizonSeconds: 60 }),
  deliverWebhookEvents: ({ subscriptionId }) =>
    new Promise((resolve) => webhookRounds.set(subscriptionId, [...roundsOf(subscriptionId), resolve])),
  pauseWebhookSubscription: async () => undefined,
};

beforeAll(async () => {
  Runtime.install({ logger: new DefaultLogger('WARN') });
  env = await TestWorkflowEnvironment.createLocal({
    server: {
      executable: { type: 'existing-path', path: TEMPORAL_BINARY },
      searchAttributes: Object.values(searchAttributeKeys),
    },
  });
  worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    workflowsPath: require.resolve('../../workflows'),
    activities: {
      ...bookingActivities,
      ...tvActivities,
      ...afterStayActivities,
      ...accountActivities,
      ...channelActivities,
      ...intakeActivities,
      ...webhookActivities,
    },
  });
  running = worker.run();
});

afterAll(async () => {
  worker?.shutdown();
  await running;
  await env?.teardown();
});

const start = <T extends unknown[]>(workflowType: string, args: T) =>
  env.client.workflow.start(workflowType, { taskQueue, workflowId: `${workflowType}-${randomUUID()}`, args });

describe('booking workflow', () => {
  const of = <T extends { bookingId: string }>(list: T[], bookingId: string) =>
    list.filter((item) => item.bookingId === bookingId);

  it('with nothing outside to send: a start, its signals and no activity, timer or marker', async () => {
    const bookingId = randomUUID();
    const handle = await start('bookingLife', [{ hotelId: 'h1', bookingId, status: 'inquiry', effects: {} }]);
    for (const status of ['confirmed', 'checked_in', 'checked_out'] as const)
      await handle.signal(bookingStatusSignal, { status, reason: 'manual', effects: {} });
    expect(await handle.result()).toBe('checked_out');
    const { events } = await handle.fetchHistory();
    const billed = events!.filter(
      (event) =>
        event.activityTaskScheduledEventAttributes ||
        event.timerStartedEventAttributes ||
        event.markerRecordedEventAttributes,
    );
    expect(billed).toEqual([]);
    expect(events!.filter((event) => event.workflowExecutionSignaledEventAttributes)).toHaveLength(3);
    expect([...of(announced, bookingId), ...of(guestEmails, bookingId), ...of(tvPushes, bookingId)]).toEqual([]);
  });

  it('sends what each commit asked for: e-mails, the TV pushes, then the points and the delayed invitation', async () => {
    const bookingId = randomUUID();
    const handle = await start('bookingLife', [
      { hotelId: 'h1', bookingId, status: 'inquiry', effects: { guestEmail: 'received' } },
    ]);
    await handle.signal(bookingStatusSignal, {
      status: 'confirmed',
      reason: 'online_payment',
      effects: { guestEmail: 'confirmed' },
    });
    await handle.signal(bookingStatusSignal, { status: 'checked_in', reason: 'manual', effects: { tv: 'check_in' } });
    await handle.signal(bookingStatusSignal, {
      status: 'checked_out',
      reason: 'manual',
      effects: { tv: 'check_out', loyalty: true, reviewInvitationAt: Date.now() + 2000 },
    });
    expect(await handle.result()).toBe('checked_out');
    expect(of(guestEmails, bookingId).map((mail) => mail.kind)).toEqual(['received', 'confirmed']);
    expect(of(tvPushes, bookingId).map((push) => push.event)).toEqual(['check_in', 'check_out']);
    // No activity asks for the delay: the check-out's commit gave the time, and a durable timer waits until then.
    expect(stepsAfter(bookingId).sort()).toEqual(['invite', 'points']);
    const { events } = await handle.fetchHistory();
    const timers = events!.flatMap((event) => event.timerStartedEventAttributes ?? []);
    expect(timers).toHaveLength(1);
    const timerMs =
      Number(timers[0].startToFireTimeout?.seconds ?? 0) * 1000 + (timers[0].startToFireTimeout?.nanos ?? 0) / 1e6;
    expect(timerMs).toBeGreaterThan(0);
    expect(timerMs).toBeLessThanOrEqual(2000);
    expect(of(announced, bookingId)).toEqual([]);
  });

  it('a change from a process of the first version (no effects): announced, and the activities decide', async () => {
    const bookingId = randomUUID();
    delays.set(bookingId, 0);
    const handle = await start('bookingLife', [{ hotelId: 'h1', bookingId, status: 'confirmed', effects: {} }]);
    await handle.signal(bookingStatusSignal, { status: 'checked_in', reason: 'manual' });
    await handle.signal(bookingStatusSignal, { status: 'checked_out', reason: 'manual' });
    expect(await handle.result()).toBe('checked_out');
    expect(of(announced, bookingId).map((a) => a.announcement)).toEqual([
      { event: 'status', status: 'checked_in', reason: 'manual' },
      { event: 'status', status: 'checked_out', reason: 'manual' },
    ]);
    expect(of(tvPushes, bookingId).map((push) => push.event)).toEqual(['check_in', 'check_out']);
    expect(stepsAfter(bookingId).sort()).toEqual(['delay', 'invite', 'points']);
  });

  it('a planned move: carried out at its time, once, the latest plan only; the next one then; none once undone', async () => {
    const bookingId = randomUUID();
    const handle = await start('bookingLife', [{ hotelId: 'h1', bookingId, status: 'checked_in', effects: {} }]);
    const plan = (roomId: string, inMs: number) => ({ next: { from: '2030-01-02', roomId, at: Date.now() + inMs } });
    // Changed before its time: only the newer plan is carried out.
    await handle.signal(movePlannedSignal, plan('r1', 60_000));
    await handle.signal(movePlannedSignal, plan('r2', 1000));
    await until(() => of(carriedOut, bookingId).length === 2, { what: 'the planned moves carried out' });
    // Undone before its time: nothing carried out; the booking ends without waiting for it.
    await handle.signal(movePlannedSignal, plan('r4', 60_000));
    await handle.signal(movePlannedSignal, { next: null });
    await handle.signal(bookingStatusSignal, { status: 'checked_out', reason: 'manual', effects: {} });
    expect(await handle.result()).toBe('checked_out');
    expect(of(carriedOut, bookingId).map((move) => move.roomId)).toEqual(['r2', 'r3']);
  });

  it('started by a final status (a booking without a workflow until then): sends what that signal asked, once', async () => {
    const bookingId = randomUUID();
    const handle = await env.client.workflow.signalWithStart('bookingLife', {
      taskQueue,
      workflowId: `bookingLife-${bookingId}`,
      args: [{ hotelId: 'h1', bookingId, status: 'cancelled', effects: {} }],
      signal: bookingStatusSignal,
      signalArgs: [{ status: 'cancelled', reason: 'manual', effects: { guestEmail: 'cancelled' } }],
    });
    expect(await handle.result()).toBe('cancelled');
    expect(of(guestEmails, bookingId).map((mail) => mail.kind)).toEqual(['cancelled']);
  });
});

describe('booking workflow, first version (`booking`, for the workflows it started)', () => {
  it('announces the creation, then each status change, and ends at a final status', async () => {
    const bookingId = randomUUID();
    const handle = await start('booking', [{ hotelId: 'h1', bookingId, status: 'confirmed' }]);
    await handle.signal(bookingStatusSignal, { status: 'checked_in', reason: 'manual' });
    await handle.signal(bookingStatusSignal, { status: 'checked_out', reason: 'auto_checkout' });
    expect(await handle.result()).toBe('checked_out');
    expect(announced.filter((a) => a.bookingId === bookingId).map((a) => a.announcement)).toEqual([
      { event: 'created' },
      { event: 'status', status: 'checked_in', reason: 'manual' },
      { event: 'status', status: 'checked_out', reason: 'auto_checkout' },
    ]);
    // The TV system greets the guest and forgets them, once each.
    expect(tvPushes.filter((push) => push.bookingId === bookingId).map((push) => push.event)).toEqual([
      'check_in',
      'check_out',
    ]);
  });

  it('a booking cancelled as a no-show ends there, with nothing after the stay', async () => {
    const bookingId = randomUUID();
    delays.set(bookingId, 0);
    const handle = await start('booking', [{ hotelId: 'h1', bookingId, status: 'inquiry' }]);
    await handle.signal(bookingStatusSignal, { status: 'cancelled', reason: 'no_show' });
    expect(await handle.result()).toBe('cancelled');
    expect(stepsAfter(bookingId)).toEqual([]);
  });

  it('after the check-out: the points, then the review invitation once the delay has passed', async () => {
    const bookingId = randomUUID();
    delays.set(bookingId, 1000);
    const handle = await start('booking', [{ hotelId: 'h1', bookingId, status: 'checked_in' }]);
    await handle.signal(bookingStatusSignal, { status: 'checked_out', reason: 'manual' });
    expect(await handle.result()).toBe('checked_out');
    // The points beside the invitation, which waits for its delay.
    expect(stepsAfter(bookingId).filter((step) => step === 'points')).toHaveLength(1);
    expect(stepsAfter(bookingId).filter((step) => step !== 'points')).toEqual(['delay', 'invite']);
    // The durable timer of the delay the activity answered, between asking and inviting.
    const { events } = await handle.fetchHistory();
    const timers = events!.flatMap((event) => event.timerStartedEventAttributes ?? []);
    expect(timers.map((timer) => Number(timer.startToFireTimeout?.seconds) * 1000)).toEqual([1000]);
    // The step's patch is decided after the check-out's signal, not at the start: a workflow already running when the
    // step was deployed takes it at its check-out too.
    const markerAt = events!.findIndex((event) => {
      const patch = event.markerRecordedEventAttributes?.details?.['patch-data']?.payloads?.[0]?.data;
      return patch && (JSON.parse(Buffer.from(patch).toString()) as { id: string }).id === 'after-stay';
    });
    const checkOutAt = events!.findLastIndex((event) => event.workflowExecutionSignaledEventAttributes);
    expect(checkOutAt).toBeGreaterThan(0);
    expect(markerAt).toBeGreaterThan(checkOutAt);
  });

  it('no invitation when the activity answers no delay (no address, opted out, reviews off)', async () => {
    const bookingId = randomUUID();
    delays.set(bookingId, null);
    const handle = await start('booking', [{ hotelId: 'h1', bookingId, status: 'checked_in' }]);
    await handle.signal(bookingStatusSignal, { status: 'checked_out', reason: 'auto_checkout' });
    expect(await handle.result()).toBe('checked_out');
    expect(stepsAfter(bookingId).sort()).toEqual(['delay', 'points']);
  });
});

describe('background sweeps', () => {
  it('count what they found and what they actually changed', async () => {
    expect(await (await start('noShowSweep', [])).result()).toEqual({ found: 2, cancelled: 1 });
    expect(await (await start('autoCheckoutSweep', [])).result()).toEqual({ found: 1, checkedOut: 1 });
  });
});

describe('accounts', () => {
  it('an account request is handed to its step once, whatever the address', async () => {
    expect(await (await start('accountRequest', [{ requestId: 'known' }])).result()).toBe('link_sent');
    expect(await (await start('accountRequest', [{ requestId: 'unknown' }])).result()).toBe('nothing_to_send');
  });

  it('an account e-mail is sent for its purpose', async () => {
    await (await start('accountEmail', [{ purpose: 'reset', userId: 'u-reset' }])).result();
    expect(calls).toContain('email:reset:u-reset');
  });

  it('an invitation accepted in time ends as accepted and expires nothing', async () => {
    const handle = await start('staffInvitation', [{ userId: 'u-accepting', expiresInMs: 60_000 }]);
    await handle.signal(invitationAcceptedSignal);
    expect(await handle.result()).toBe('accepted');
    expect(calls).toContain('invite:u-accepting');
    expect(calls).not.toContain('expire:u-accepting');
  });

  it('an invitation nobody accepts expires after its lifetime', async () => {
    const handle = await start('staffInvitation', [{ userId: 'u-silent', expiresInMs: 1000 }]);
    expect(await handle.result()).toBe('expired');
    expect(calls).toEqual(expect.arrayContaining(['invite:u-silent', 'expire:u-silent']));
  });
});

describe('channel sync', () => {
  // The first push says the hotel's midnight is half a second away; the next push finds the hotel disconnected.
  // `stale`: the first push saw the inventory move, a change pending across the midnight (a busy hotel): the next
  // push, held by the channel's interval, goes after the midnight and is the night's check all the same.
  it.each([
    ['at the hotel’s midnight, the wake it had already', false],
    ['at the first push after the hotel’s midnight when a change was pending across it', true],
  ])('reconciles %s', async (_, stale) => {
    const hotelId = randomUUID();
    channelAnswers.set(hotelId, [() => ({ status: 'connected', calls: 2, stale, nextDayAt: Date.now() + 500 })]);
    const handle = await start('channelSync', [{ hotelId }]);
    await handle.signal(CHANNEL_CHANGED_SIGNAL, { full: true });
    await handle.result();
    expect(pushesOf(hotelId)).toEqual([
      { hotelId, full: true },
      { hotelId, full: false, reconcile: true },
    ]);
  });

  it('takes a requested reconciliation with the changes around it into one push', async () => {
    const hotelId = randomUUID();
    const handle = await start('channelSync', [{ hotelId }]);
    await handle.signal(CHANNEL_CHANGED_SIGNAL, { full: false });
    await handle.signal(CHANNEL_CHANGED_SIGNAL, { full: false, reconcile: true });
    await handle.signal(CHANNEL_CHANGED_SIGNAL, { full: false });
    await handle.result();
    expect(pushesOf(hotelId)).toEqual([{ hotelId, full: false, reconcile: true }]);
  });
});

describe('channel intake', () => {
  it('an idle intake reads the feed again within 30 s: a revision whose webhook was lost is not left a minute', async () => {
    const handle = await start('channelIntake', [{ hotelId: `h-${randomUUID()}` }]);
    let poll: { seconds?: unknown } | null | undefined;
    for (let tries = 0; !poll && tries < 100; tries++) {
      const { events } = await handle.fetchHistory();
      poll = events?.find((event) => event.timerStartedEventAttributes)?.timerStartedEventAttributes
        ?.startToFireTimeout;
      if (!poll) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await handle.terminate();
    expect(Number(poll?.seconds)).toBe(30);
  });
});

describe('webhook delivery', () => {
  it('a round that read the subscription paused, woken meanwhile and active again, is followed by a round at once', async () => {
    // The wakes that reach a round reading a paused subscription may stand for events committed after its read (their
    // own wakes coalesced into them): the recheck finds it resumed, and a round must follow, not the idle poll.
    const subscriptionId = randomUUID();
    const handle = await start('webhookDelivery', [{ hotelId: randomUUID(), subscriptionId }]);
    await until(() => roundsOf(subscriptionId)[0], { what: 'the first round' });
    await handle.signal(WEBHOOK_WAKE_SIGNAL);
    await until(
      async () => (await handle.fetchHistory()).events?.some((event) => event.workflowExecutionSignaledEventAttributes),
      {
        what: 'the wake in the history',
      },
    );
    roundsOf(subscriptionId)[0]({ status: 'paused', delivered: 0, caughtUp: true });
    const followed = await until(
      async () => {
        const events = (await handle.fetchHistory()).events ?? [];
        const rounds = events.filter(
          (event) => event.activityTaskScheduledEventAttributes?.activityType?.name === 'deliverWebhookEvents',
        ).length;
        const idlePoll = events.some((event) => event.timerStartedEventAttributes);
        return rounds > 1 || idlePoll ? { rounds, idlePoll } : undefined;
      },
      { what: 'what follows the recheck' },
    );
    await handle.terminate();
    // The worker's shutdown waits for the activities it runs: the second round, if any, returns.
    roundsOf(subscriptionId)[1]?.({ status: 'gone', delivered: 0, caughtUp: true });
    expect(followed).toEqual({ rounds: 2, idlePoll: false });
  });
});
