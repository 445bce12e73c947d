import { randomUUID } from 'node:crypto';
import type { Db } from '../../src/platform/db/knex';
import { fakeChannexControl, type BookingRevision } from '../../test/fakes/channex';
import { call, signIn } from './fixtures';
import { percentile, percentiles } from './stats';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const REVISIONS = 1000;
const ROOMS = 10;
const NIGHTS = REVISIONS / ROOMS;

/**
 * OTA revisions -> acknowledged after they are applied: 1,000 new bookings made at the fake Channex as fast as one
 * client can, every tenth announced twice, every twentieth modified with its webhook held and released in reverse
 * order, while the worker is SIGKILLed (and started again) twice. Figures: from a revision's making to its
 * acknowledgement, and what is lost, applied twice or left unplaced.
 */
export async function benchIntake(
  baseUrl: string,
  db: Db,
  email: string,
  channexFakeUrl: string,
  killWorker: () => Promise<void>,
): Promise<string[]> {
  const { token, hotel } = await signIn(baseUrl, email);
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

  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  const made = new Map<string, number>();
  const revisions: BookingRevision[] = [];
  const held: string[] = [];
  const faults: Promise<void>[] = [];
  const started = Date.now();
  for (let i = 0; i < REVISIONS; i++) {
    const night = 30 + (i % NIGHTS);
    const revision = await control.makeRevision(property, {
      ota_reservation_code: `BENCH${i}`,
      arrival_date: day(night),
      departure_date: day(night + 1),
      rooms: [{ room_type_id: roomType.id, rate_plan_id: roomType.rate_plans[0].id, adults: 1 }],
      webhook: i % 10 === 0 ? 'twice' : 'once',
    });
    made.set(revision.id, Date.now());
    revisions.push(revision);
    if (i % 20 === 19) {
      const modified = await control.makeRevision(property, {
        status: 'modified',
        booking_id: revision.booking_id,
        customer: { surname: `Modified${i}` },
        webhook: 'hold',
      });
      made.set(modified.id, Date.now());
      revisions.push(modified);
      held.push(modified.id);
    }
    if (i === 300 || i === 700) faults.push(killWorker());
  }
  const madeIn = (Date.now() - started) / 1000;
  await control.releaseHeld(property, held.reverse());
  await Promise.all(faults);

  const acked = new Map<string, number>();
  const deadline = Date.now() + 600_000;
  while (acked.size < revisions.length && Date.now() < deadline) {
    for (const item of await control.revisions(property))
      if (item.acknowledge_status === 'acknowledged' && !acked.has(item.id)) acked.set(item.id, Date.now());
    await sleep(250);
  }
  const delays = [...acked].map(([id, at]) => at - made.get(id)!).sort((a, b) => a - b);
  const recorded = (await db('channel_revisions').where({ hotel_id: hotelId }).select('revision_id', 'outcome')) as {
    revision_id: string;
    outcome: string;
  }[];
  const codes = (await db('bookings')
    .where({ hotel_id: hotelId, source: 'ota' })
    .select('notes', 'guest_last_name')) as { notes: string; guest_last_name: string }[];
  const ofCode = (code: string) => codes.filter((row) => row.notes.startsWith(`Booking.com · ${code}\n`));
  const news = revisions.filter((item) => item.status === 'new');
  const lost = news.filter((item) => ofCode(item.ota_reservation_code).length === 0).length;
  const twice = news.filter((item) => ofCode(item.ota_reservation_code).length > 1).length;
  const modified = codes.filter((row) => row.guest_last_name.startsWith('Modified')).length;
  const unplaced = recorded.filter((row) => row.outcome === 'unplaced').length;
  return [
    'channel intake (OTA revision made at the fake Channex -> applied and acknowledged; one hotel)',
    `${revisions.length} revisions (${news.length} new, ${held.length} modified held back and released in reverse, ` +
      `every tenth announced twice) made in ${madeIn.toFixed(1)} s with 2 worker SIGKILLs`,
    `acknowledged: ${acked.size} of ${revisions.length}, made -> acknowledged ${percentiles(delays)}, ` +
      `p95 ${percentile(delays, 95).toFixed(0)} ms, max ${((delays.at(-1) ?? 0) / 1000).toFixed(1)} s (target: all within 60 s)`,
    `${lost} lost, ${twice} applied twice, ${modified} of ${held.length} modifications applied, ${unplaced} unplaced, ` +
      `${recorded.length} revisions recorded once each`,
  ];
}
