import { Client, Connection } from '@temporalio/client';
import type { Db } from '../../src/platform/db/knex';
import { startFakeTv, type FakeTv } from '../../test/fakes/tv';
import { bookingWorkflowIds } from '../../workflows/contracts/bookings';
import { spawnEntryPoint, waitForApi, waitForWorker } from '../stack/app-processes';
import { freePort } from '../stack/ports';
import { call, registerConfirmedOwners, signIn } from './fixtures';
import { countActions, sumActions, type ActivityRun, type HistoryActions } from './temporal-actions';

/** What a hotel has configured outside the booking itself; each configuration is a hotel of its own. */
interface Configuration {
  name: string;
  /** An online booking with the guest's address: the guest e-mails are sent. */
  guestEmails?: boolean;
  /** The TV system (the fake, reached directly) greets the guest at check-in and forgets them at check-out. */
  tv?: boolean;
  /** A loyalty programme, and the booking's guest has a profile: the stay earns points. */
  loyalty?: boolean;
  /** Review invitations on, and the guest has an address: they are invited after the stay. */
  reviews?: boolean;
}

const CONFIGURATIONS: Configuration[] = [
  { name: 'nothing outside configured' },
  { name: 'guest e-mails (online, address)', guestEmails: true },
  { name: 'TV integration', tv: true },
  { name: 'loyalty programme', loyalty: true },
  { name: 'review invitations', reviews: true },
  { name: 'all of them', guestEmails: true, tv: true, loyalty: true, reviews: true },
];

const LIFECYCLE = ['confirmed', 'checked_in', 'checked_out'] as const;
const TASK_QUEUE = 'hotel';
const SETTLE_TIMEOUT_MS = 120_000;

/**
 * What an activity's result says when it found nothing to do: no notification made, no e-mail for this booking, no
 * TV system, no programme or nothing to earn, no invitation, no subscription to push to.
 */
const NOTHING_TO_DO: Record<string, (result: unknown) => boolean> = {
  announceBooking: (result) => result === 0,
  sendGuestBookingEmail: (result) => result === 'not_for_this_booking',
  pushStayToTv: (result) => result === 'skipped',
  accrueStayPoints: (result) => result === 'no_programme' || result === 'not_eligible',
  reviewInvitationDelay: (result) => result === null || result === undefined,
  sendReviewInvitation: (result) => result === 'not_invited',
  pushTargets: (result) => Array.isArray(result) && result.length === 0,
  sendPush: (result) => result === 'skipped',
};
export const nothingToDo = (run: ActivityRun) => NOTHING_TO_DO[run.type]?.(run.result) ?? false;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

interface Measured {
  configuration: Configuration;
  booking: HistoryActions;
  others: HistoryActions;
  /** The other workflows the lifecycle caused, by type. */
  otherTypes: Record<string, number>;
}

/** A hotel set up through the API as `configuration` says: books its room as an inquiry and moves the booking on. */
async function hotelAs(baseUrl: string, email: string, configuration: Configuration, tv: FakeTv) {
  const { token, hotel } = await signIn(baseUrl, email);
  const send = <T = { id: string }>(method: string, path: string, body: object) =>
    call<T>(baseUrl, method, `${hotel}${path}`, token, body);
  const category = await send('POST', '/room-categories', { name: 'Bench', base_price: 4000 });
  const room = await send('POST', '/rooms', { number: '101', category_id: category.id });
  if (configuration.tv)
    await send('PATCH', '/tv-integration/settings', {
      enabled: true,
      connection_type: 'direct',
      server_url: tv.url,
      default_language: 'ru',
      netup_room_number: { [room.id]: '101' },
    });
  if (configuration.loyalty)
    await send('PATCH', '/loyalty/settings', { enabled: true, tiers: [{ name: 'Base', threshold: 0, earn_rate: 5 }] });
  if (configuration.reviews) await send('PATCH', '/review-settings', { invitations_enabled: true });
  const guest = configuration.loyalty
    ? await send('POST', '/guests', { last_name: 'Bench', first_name: 'Guest' })
    : undefined;
  const book = async () =>
    (
      await send('POST', '/bookings', {
        room_id: room.id,
        check_in: day(-1),
        check_out: day(2),
        guest_last_name: 'Bench',
        guest_first_name: 'Guest',
        status: 'inquiry',
        ...(configuration.guestEmails && { source: 'online' }),
        ...((configuration.guestEmails || configuration.reviews) && {
          guest_email: `guest-${Date.now()}@example.test`,
        }),
        ...(guest && { guest_id: guest.id }),
      })
    ).id;
  const move = (bookingId: string, status: string) => send('PATCH', `/bookings/${bookingId}`, { status });
  return { slug: hotel.split('/').pop()!, book, move };
}

/** The workflows the hotel's outbox messages since `sinceId` address (each message of a hotel names its slug). */
async function workflowsSince(db: Db, slug: string, sinceId: number) {
  const rows = (await db('outbox')
    .where('id', '>', sinceId)
    .whereRaw("message->'searchAttributes'->>'HotelSlug' = ?", [slug])
    .select('workflow_id', 'delivered_at')) as { workflow_id: string; delivered_at: Date | null }[];
  return {
    ids: [...new Set(rows.map((row) => row.workflow_id))].sort(),
    undelivered: rows.some((r) => !r.delivered_at),
  };
}

/** Until the workflow's messages are delivered and it has no task or activity pending (or it has closed). */
async function untilIdle(db: Db, client: Client, workflowId: string): Promise<void> {
  const deadline = Date.now() + SETTLE_TIMEOUT_MS;
  for (;;) {
    const [{ count }] = await db('outbox')
      .where({ workflow_id: workflowId })
      .whereNull('delivered_at')
      .count({ count: '*' });
    if (Number(count) === 0) {
      const { status, raw } = await client.workflow.getHandle(workflowId).describe();
      if (status.name !== 'RUNNING' || (!raw.pendingActivities?.length && !raw.pendingWorkflowTask)) return;
    }
    if (Date.now() > deadline) throw new Error(`${workflowId} did not come to rest`);
    await sleep(100);
  }
}

/**
 * Until every message the lifecycle caused is delivered and every workflow they address has closed, twice in a row
 * with the same workflows (a closing workflow's last activity may have enqueued another).
 */
async function settledWorkflows(db: Db, client: Client, slug: string, sinceId: number): Promise<string[]> {
  const deadline = Date.now() + SETTLE_TIMEOUT_MS;
  let previous = '';
  for (;;) {
    const { ids, undelivered } = await workflowsSince(db, slug, sinceId);
    const statuses = undelivered
      ? []
      : await Promise.all(ids.map(async (id) => (await client.workflow.getHandle(id).describe()).status.name));
    const closed = !undelivered && statuses.every((status) => status !== 'RUNNING');
    if (closed && previous === ids.join()) return ids;
    previous = closed ? ids.join() : '';
    if (Date.now() > deadline) throw new Error(`the workflows of ${slug} did not settle: ${ids.join(', ')}`);
    await sleep(250);
  }
}

async function measure(
  baseUrl: string,
  db: Db,
  client: Client,
  email: string,
  configuration: Configuration,
  tv: FakeTv,
): Promise<Measured> {
  const { slug, book, move } = await hotelAs(baseUrl, email, configuration, tv);
  // What the setup caused is not the lifecycle's: only the messages from the booking on are counted.
  const [{ max }] = (await db('outbox').max({ max: 'id' })) as { max: string | null }[];
  const bookingId = await book();
  const bookingWorkflow = bookingWorkflowIds.booking(bookingId);
  // A desk moves a stay on days apart: each move once the workflow has done what the previous one asked.
  await untilIdle(db, client, bookingWorkflow);
  for (const status of LIFECYCLE) {
    await move(bookingId, status);
    await untilIdle(db, client, bookingWorkflow);
  }
  const ids = await settledWorkflows(db, client, slug, Number(max ?? 0));
  const counted = await Promise.all(
    ids.map(async (id) => {
      const handle = client.workflow.getHandle(id);
      const [history, { type }] = await Promise.all([handle.fetchHistory(), handle.describe()]);
      return { id, type, actions: countActions(history) };
    }),
  );
  const others = counted.filter(({ id }) => id !== bookingWorkflow);
  const otherTypes: Record<string, number> = {};
  for (const { type } of others) otherTypes[type] = (otherTypes[type] ?? 0) + 1;
  const booking = counted.find(({ id }) => id === bookingWorkflow);
  if (!booking) throw new Error(`no workflow ${bookingWorkflow} among ${ids.join(', ')}`);
  return { configuration, booking: booking.actions, others: sumActions(others.map((o) => o.actions)), otherTypes };
}

const listed = (counts: Record<string, number>) =>
  Object.entries(counts)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, count]) => `${key} ${count}`)
    .join(', ') || 'none';

function activitiesLine(runs: ActivityRun[]) {
  return runs
    .map((run) => `${run.type}${run.attempts > 1 ? ` x${run.attempts}` : ''} → ${JSON.stringify(run.result)}`)
    .join('; ');
}

function report(results: Measured[]): string[] {
  const pad = (text: string | number, width: number) => String(text).padEnd(width);
  const lines = [
    'lifecycle actions: one booking per hotel configuration, inquiry → confirmed → checked in → checked out through',
    'the API (each move once the workflow is at rest); Temporal Cloud actions counted from the real histories',
    '(docs.temporal.io/cloud/actions); "nothing to do": activities whose result says nothing was done',
    '',
    `${pad('configuration', 34)}${pad('booking wf', 12)}${pad('other wfs', 11)}${pad('total', 7)}` +
      `${pad('activities', 12)}nothing to do`,
  ];
  for (const { configuration, booking, others } of results) {
    const activities = [...booking.activities, ...others.activities];
    lines.push(
      `${pad(configuration.name, 34)}${pad(booking.actions, 12)}${pad(others.actions, 11)}` +
        `${pad(booking.actions + others.actions, 7)}${pad(activities.length, 12)}` +
        `${activities.filter(nothingToDo).length}`,
    );
  }
  for (const { configuration, booking, others, otherTypes } of results) {
    lines.push(
      '',
      `${configuration.name}:`,
      `  booking workflow, actions: ${listed(booking.byKind)}`,
      `    events: ${listed(booking.eventCounts)}`,
      `    activities: ${activitiesLine(booking.activities)}`,
      `  other workflows: ${listed(otherTypes)}; actions: ${listed(others.byKind)}`,
    );
    if (others.activities.length > 0)
      lines.push(`    events: ${listed(others.eventCounts)}`, `    activities: ${activitiesLine(others.activities)}`);
  }
  return lines;
}

/**
 * Actions per booking lifecycle by hotel configuration, read from the real histories: its own API and worker (the
 * TV fake is on this machine, so outbound calls to private addresses are allowed; the review invitation waits a
 * second after the check-out instead of the hotel's hours, still on a durable timer).
 */
export async function benchLifecycleActions(env: NodeJS.ProcessEnv, db: Db, temporalAddress: string) {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const ownEnv = { ...env, ALLOW_PRIVATE_OUTBOUND: 'true', REVIEW_INVITATION_DELAY_MS: '1000' };
  const tv = await startFakeTv();
  const api = spawnEntryPoint('src/main.ts', { ...ownEnv, PORT: String(port) }, 'ignore');
  const worker = spawnEntryPoint('workers/main.ts', ownEnv, 'ignore');
  const connection = await Connection.connect({ address: temporalAddress });
  try {
    await Promise.all([waitForApi(baseUrl, api), waitForWorker(temporalAddress, TASK_QUEUE, worker)]);
    const client = new Client({ connection });
    const owners = await registerConfirmedOwners(baseUrl, db, CONFIGURATIONS.length);
    const results: Measured[] = [];
    for (const [i, configuration] of CONFIGURATIONS.entries())
      results.push(await measure(baseUrl, db, client, owners[i], configuration, tv));
    const pushes = tv.accepted().length;
    return [...report(results), '', `the TV fake accepted ${pushes} pushes (2 expected per configuration with TV)`];
  } finally {
    await connection.close();
    await Promise.all([api.stop(), worker.stop()]);
    await tv.close();
  }
}
