import { randomUUID } from 'node:crypto';
import type { Db } from '../../src/platform/db/knex';
import { call, signIn } from './fixtures';
import { percentile } from './stats';

/** Records of the booking per source (500 entries in all), and as many again of other stays around them. */
const OWN = { payments: 150, tv: 100, notifications: 100, cards: 75, folio: 75 };
const NOISE = 20_000;
const READS = 200;

const localDay = (offset: number) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Moscow' }).format(new Date(Date.now() + offset * 86_400_000));

const INDEXES = ['tv_push_log_booking_idx', 'loyalty_entries_booking_idx', 'notifications_booking_idx'];

/** ~500 entries of one stay across sources, among 20,000 rows of other stays in the same tables. */
async function seed(db: Db, hotelId: string, bookingId: string, roomId: string, folioId: string, userId: string) {
  const at = (i: number) => new Date(Date.now() - (1000 - i) * 60_000);
  const many = <T>(n: number, row: (i: number) => T) => Array.from({ length: n }, (_, i) => row(i));
  const booking = { hotel_id: hotelId, booking_id: bookingId };
  await db.batchInsert(
    'booking_payments',
    many(OWN.payments, (i) => ({ ...booking, amount: '10.00', method: 'cash', paid_at: at(i), created_by: userId })),
    500,
  );
  const push = (id: string, i: number) => ({
    hotel_id: hotelId,
    booking_id: id,
    event: 'check_in',
    status: 'ok',
    via: 'direct',
    created_at: at(i),
  });
  await db.batchInsert(
    'tv_push_log',
    [...many(OWN.tv, (i) => push(bookingId, i)), ...many(NOISE, (i) => push(randomUUID(), i % 1000))],
    1000,
  );
  const note = (id: string, i: number) => ({
    hotel_id: hotelId,
    type: 'booking_created',
    title: `Бронь ${i}`,
    data: { booking_id: id },
    created_at: at(i),
  });
  await db.batchInsert(
    'notifications',
    [...many(OWN.notifications, (i) => note(bookingId, i)), ...many(NOISE, (i) => note(randomUUID(), i % 1000))],
    1000,
  );
  await db.batchInsert(
    'card_issuances',
    many(OWN.cards, (i) => ({
      ...booking,
      room_ids: [roomId],
      sectors: [1],
      valid_from: at(i),
      valid_until: new Date(),
      status: 'failed',
      issued_by: userId,
      created_at: at(i),
    })),
    500,
  );
  await db.batchInsert(
    'folio_lines',
    many(OWN.folio, (i) => ({
      hotel_id: hotelId,
      folio_id: folioId,
      kind: 'service',
      amount: '5.00',
      vat_rate: 'none',
      business_date: localDay(0),
      description: `Услуга ${i}`,
      posted_by: userId,
      posted_via: 'bench',
      source: `bench:${i}`,
      created_at: at(i),
    })),
    500,
  );
}

async function reads(baseUrl: string, path: string, token: string) {
  const took: number[] = [];
  let entries = 0;
  for (let i = 0; i < READS + 20; i++) {
    const from = performance.now();
    const body = await call<{ entries: unknown[] }>(baseUrl, 'GET', path, token);
    if (i >= 20) took.push(performance.now() - from);
    entries = body.entries.length;
  }
  took.sort((a, b) => a - b);
  const ms = (p: number) => `${percentile(took, p).toFixed(1)} ms`;
  return `${entries} entries, ${READS} reads one after another: p50 ${ms(50)}, p95 ${ms(95)}, max ${ms(100)}`;
}

/**
 * GET /bookings/{id}/timeline of a stay with ~500 entries across sources (payments, TV pushes, notifications, cards,
 * folio lines; with its status times and workflow asked), among 20,000 rows of other stays; then the same without the
 * indexes of migration 105 (what the booking's reads of the TV log and notifications cost without them).
 */
export async function benchTimeline(baseUrl: string, db: Db, email: string): Promise<string[]> {
  const { token, hotel } = await signIn(baseUrl, email);
  const { id: userId, hotel_id: hotelId } = (await db('users').where({ email }).first('id', 'hotel_id')) as {
    id: string;
    hotel_id: string;
  };
  const category = await call<{ id: string }>(baseUrl, 'POST', `${hotel}/room-categories`, token, {
    name: 'Timeline',
    base_price: 3000,
  });
  const room = await call<{ id: string }>(baseUrl, 'POST', `${hotel}/rooms`, token, {
    number: '700',
    category_id: category.id,
  });
  const stay = await call<{ id: string }>(baseUrl, 'POST', `${hotel}/bookings`, token, {
    room_id: room.id,
    check_in: localDay(-1),
    check_out: localDay(3),
    guest_last_name: 'Хронов',
    guest_first_name: 'Бенч',
  });
  await call(baseUrl, 'PATCH', `${hotel}/bookings/${stay.id}`, token, { status: 'checked_in' });
  const folio = await call<{ folios: { id: string }[] }>(baseUrl, 'GET', `${hotel}/bookings/${stay.id}/folio`, token);
  await seed(db, hotelId, stay.id, room.id, folio.folios[0].id, userId);
  await db.raw('ANALYZE booking_payments, tv_push_log, notifications, card_issuances, folio_lines');
  const path = `${hotel}/bookings/${stay.id}/timeline`;
  const indexed = await reads(baseUrl, path, token);
  const definitions = (await db('pg_indexes').whereIn('indexname', INDEXES).select('indexdef')) as {
    indexdef: string;
  }[];
  for (const name of INDEXES) await db.raw(`DROP INDEX ${name}`);
  const bare = await reads(baseUrl, path, token);
  for (const { indexdef } of definitions) await db.raw(indexdef.replaceAll('?', '\\?'));
  return [`GET /bookings/{id}/timeline: ${indexed}`, `  without migration 105's indexes: ${bare}`];
}
