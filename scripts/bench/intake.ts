import { randomUUID } from 'node:crypto';
import type { Db } from '../../src/platform/db/knex';
import {
  fakeChannexControl,
  type BookingRevision,
  type FakeChannexControl,
  type RevisionSpec,
} from '../../test/fakes/channex';
import { call, registerConfirmedOwners, signIn } from './fixtures';
import { faultTimeline, seconds, startOwnStack } from './own-stack';
import { percentile } from './stats';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Revisions made a second at the channel (BENCH_INTAKE_PER_SECOND; 0: as fast as one client can). */
const PER_SECOND = Number(process.env.BENCH_INTAKE_PER_SECOND ?? 10);
const ROOMS = 10;
/** 950 new bookings: 900 fill 90 nights' 10 rooms; every 19th is a 50th too many, 5 on each of 10 of those nights. */
const NEW = 950;
const NIGHTS = 90;
const EXTRA_EVERY = 19;
/** A modification follows every 18th placeable booking (none on a night with more bookings than rooms): 50. */
const MODIFY_EVERY = 18;
/** Seconds a revision may wait for its acknowledgement (the figure). */
const TARGET_SECONDS = 60;

/** The hotel's date `offset` days from today (the bench's hotels are in Moscow, as registration makes them). */
const day = (offset: number) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Moscow' }).format(new Date(Date.now() + offset * 86_400_000));

/** One hotel of 10 rooms connected to a new property at the fake Channex, its webhook registered. */
async function connectedHotel(baseUrl: string, db: Db, channexFakeUrl: string) {
  const [email] = await registerConfirmedOwners(baseUrl, db, 1);
  const { token, hotel } = await signIn(baseUrl, email!);
  const { hotel_id: hotelId } = (await db('users').where({ email }).first('hotel_id')) as { hotel_id: string };
  const control = fakeChannexControl(channexFakeUrl);
  const property = randomUUID();
  const apiKey = `bench-intake-${property}`;
  const opened = await control.openProperty(property, {
    api_key: apiKey,
    room_types: [{ title: 'Bench', rate_plans: [{ title: 'BAR' }] }],
  });
  const [roomType] = opened.room_types;
  const category = await call<{ id: string }>(baseUrl, 'POST', `${hotel}/room-categories`, token, {
    name: 'Intake bench',
    base_price: 3000,
  });
  for (let i = 0; i < ROOMS; i++)
    await call(baseUrl, 'POST', `${hotel}/rooms`, token, { number: `IB${i}`, category_id: category.id });
  await call(baseUrl, 'POST', `${hotel}/channel-connection`, token, {
    provider: 'channex',
    api_key: apiKey,
    property_id: property,
    room_types: [{ room_type_id: roomType.id, category_id: category.id }],
    rate_plans: [],
  });
  await call(baseUrl, 'PUT', `${hotel}/channel-intake/webhook`, token);
  const room = { room_type_id: roomType.id, rate_plan_id: roomType.rate_plans[0].id, adults: 1 };
  return { hotelId, control, property, room };
}

/** What the hotel holds of each OTA code: bookings (by their notes' first line) and unplaced revisions, from SQL. */
async function heldByCode(db: Db, hotelId: string) {
  const booked = (await db('bookings')
    .where({ hotel_id: hotelId, source: 'ota' })
    .select(db.raw(`split_part(notes, E'\\n', 1) as line`), 'guest_last_name')) as {
    line: string;
    guest_last_name: string;
  }[];
  const bookings = new Map<string, number>();
  for (const { line } of booked) {
    const code = line.split(' · ')[1] ?? line;
    bookings.set(code, (bookings.get(code) ?? 0) + 1);
  }
  const recorded = (await db('channel_revisions')
    .where({ hotel_id: hotelId })
    .select('revision_id', 'kind', 'outcome', 'ota_reservation_code')) as {
    revision_id: string;
    kind: string;
    outcome: string;
    ota_reservation_code: string;
  }[];
  const unplaced = new Set(
    recorded.filter((row) => row.kind === 'new' && row.outcome === 'unplaced').map((row) => row.ota_reservation_code),
  );
  const modified = booked.filter((row) => row.guest_last_name.startsWith('Modified')).length;
  return { bookings, unplaced, modified, recorded: new Set(recorded.map((row) => row.revision_id)) };
}

/**
 * A revision whose webhook is lost (as one announced while the API is down), made just after the idle intake's poll has
 * read the feed, so that nothing but the next poll finds it: its wait from its making to its acknowledgement (ms).
 */
async function lostAfterPoll(control: FakeChannexControl, property: string, spec: RevisionSpec): Promise<number> {
  const deadline = Date.now() + 300_000;
  const until = async <T>(found: () => Promise<T | undefined>): Promise<T> => {
    for (;;) {
      const value = await found();
      if (value !== undefined) return value;
      if (Date.now() > deadline) throw new Error('intake bench: no poll of the feed, or no acknowledgement');
      await sleep(250);
    }
  };
  const since = Date.now();
  const polls = async () =>
    (await control.calls(property)).filter((c) => c.kind === 'booking_revisions_feed').map((c) => Date.parse(c.at));
  // A round's first read of the feed after 5 s without one: the idle intake's poll, not a round of a busy one.
  const idle = (at: number, i: number, all: number[]) => at > since && i > 0 && at - all[i - 1] >= 5_000;
  await until(async () => (await polls()).find(idle));
  const made = await control.makeRevision(property, { ...spec, webhook: 'none' });
  const acked = await until(
    async () => (await control.revisions(property)).find((r) => r.id === made.id)?.acked_at ?? undefined,
  );
  return Date.parse(acked!) - Date.parse(made.inserted_at);
}

/**
 * OTA revisions -> applied and acknowledged, through faults, on its own API, worker and Temporal server: 1,000
 * revisions made at the fake Channex at BENCH_INTAKE_PER_SECOND, 950 new bookings (50 of them beyond the rooms of
 * their night: unplaceable) and 50 modifications (half with their webhook held back and released later in reverse
 * order, half ahead of their booking's `new` in the feed); every tenth new announced twice, and every 50th revision
 * announced twice more after a while. The worker is SIGKILLed at revision 250 and 750, the API at 500 and 990 (each
 * started again); then one revision whose webhook is lost, made just after a poll. Figures: from a revision's making at
 * the channel to its acknowledgement there (the fake's log), and what is lost, applied twice or dropped instead of
 * stored unplaced (SQL).
 */
export async function benchIntake(env: NodeJS.ProcessEnv, db: Db): Promise<string[]> {
  const stack = await startOwnStack(env, 'intake');
  try {
    const { hotelId, control, property, room } = await connectedHotel(stack.baseUrl, db, env.CHANNEX_FAKE_URL!);
    const made: BookingRevision[] = [];
    let held: string[] = [];
    const timeline = faultTimeline();
    const started = Date.now();
    /** Makes one revision on the pace, then the run's faults, late duplicates and releases due at its count. */
    const step = async (spec: RevisionSpec) => {
      await sleep(Math.max(0, started + (made.length * 1000) / (PER_SECOND || Infinity) - Date.now()));
      const revision = await control.makeRevision(property, spec);
      made.push(revision);
      if (spec.webhook === 'hold') held.push(revision.id);
      const count = made.length;
      if (count % 50 === 0) await control.notifyAgain(property, made[count - 21]!.id, 2);
      if (count % 100 === 0 && held.length > 0) {
        await control.releaseHeld(property, held.reverse());
        held = [];
      }
      if (count === 250 || count === 750) timeline.at(`revision ${count}`, 'worker SIGKILL', stack.killWorker);
      // The last: the final revisions' webhooks lost, and no later one to wake the intake (the feed poll's case).
      if (count === 500 || count === 990) timeline.at(`revision ${count}`, 'API SIGKILL', stack.killApi);
      return revision;
    };
    let extras = 0;
    for (let j = 0; j < NEW; j++) {
      const extra = j % EXTRA_EVERY === EXTRA_EVERY - 1;
      const placeable = j - extras;
      const night = 30 + (extra ? (extras++ % 10) * 9 : placeable % NIGHTS);
      const booking = await step({
        ota_reservation_code: `BENCH${j}`,
        arrival_date: day(night),
        departure_date: day(night + 1),
        rooms: [room],
        webhook: j % 10 === 0 ? 'twice' : 'once',
      });
      if (extra || placeable % MODIFY_EVERY !== MODIFY_EVERY - 1) continue;
      const ahead = Math.floor(placeable / MODIFY_EVERY) % 2 === 0;
      await step({
        status: 'modified',
        booking_id: booking.booking_id,
        customer: { surname: `Modified${j}` },
        ...(ahead ? { feed_order: 'before_previous', webhook: 'once' } : { webhook: 'hold' }),
      });
    }
    const madeIn = Date.now() - started;
    if (held.length > 0) await control.releaseHeld(property, held.reverse());
    await timeline.over();

    let revisions = await control.revisions(property);
    const deadline = Date.now() + 600_000;
    while (revisions.some((item) => !item.acked_at) && Date.now() < deadline) {
      await sleep(1_000);
      revisions = await control.revisions(property);
    }
    const waits = revisions
      .filter((item) => item.acked_at)
      .map((item) => ({ item, ms: Date.parse(item.acked_at!) - Date.parse(item.inserted_at) }))
      .sort((a, b) => a.ms - b.ms);
    const delays = waits.map((wait) => wait.ms);
    const late = waits.filter((wait) => wait.ms > TARGET_SECONDS * 1000);
    const lateMade = late.map((wait) => Date.parse(wait.item.inserted_at) - started);
    const night = day(30 + NIGHTS + 10);
    const lost = { arrival_date: night, departure_date: day(30 + NIGHTS + 11), rooms: [room] };
    const lostWait = await lostAfterPoll(control, property, { ...lost, ota_reservation_code: 'BENCHLOST' });
    const held_ = await heldByCode(db, hotelId);
    const news = revisions.filter((item) => item.status === 'new').map((item) => item.ota_reservation_code);
    const booked = news.filter((code) => (held_.bookings.get(code) ?? 0) > 0).length;
    const missing = news.filter((code) => !held_.bookings.has(code) && !held_.unplaced.has(code)).length;
    const twice = news.filter((code) => (held_.bookings.get(code) ?? 0) + (held_.unplaced.has(code) ? 1 : 0) > 1);
    const modifications = revisions.length - news.length;
    const beyond = news.length - NIGHTS * ROOMS;
    return [
      'channel intake through faults (own API, worker and Temporal server; OTA revisions made at the fake Channex)',
      `${revisions.length} revisions made in ${seconds(madeIn)} (${PER_SECOND || 'as fast as possible'}/s): ` +
        `${news.length} new (${beyond} beyond the rooms of their night), ${modifications} modified (half held back ` +
        'and released in reverse, half ahead of their new in the feed); every tenth new announced twice, every 50th ' +
        'revision twice more later',
      ...timeline.lines,
      `acknowledged (the fake's log): ${waits.length} of ${revisions.length}; made at the channel -> acknowledged ` +
        `p50 ${(percentile(delays, 50) / 1000).toFixed(1)} s, p95 ${(percentile(delays, 95) / 1000).toFixed(1)} s, ` +
        `max ${((delays.at(-1) ?? NaN) / 1000).toFixed(1)} s; ${late.length} over ${TARGET_SECONDS} s` +
        (late.length > 0 ? ` (made ${seconds(Math.min(...lateMade))} to ${seconds(Math.max(...lateMade))} in)` : ''),
      `a revision whose webhook is lost (as while the API is down), made just after the idle intake's poll of the ` +
        `feed: acknowledged after ${(lostWait / 1000).toFixed(1)} s (found by the next poll)`,
      `applied once (SQL, bookings by OTA code): ${booked} of ${news.length - beyond} placeable; ${missing} lost, ` +
        `${twice.length} applied twice; ${held_.modified} of ${modifications} modifications applied; ` +
        `unplaced stored: ${held_.unplaced.size} of ${beyond} (${beyond - held_.unplaced.size} dropped); ` +
        `${revisions.filter((item) => held_.recorded.has(item.id)).length} revisions recorded once each`,
    ];
  } finally {
    await stack.stop();
  }
}
