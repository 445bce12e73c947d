import { loadConfig } from '../../src/config';
import { MODULES } from '../../src/modules/registry';
import { createRetentionService } from '../../src/modules/retention/retention.service';
import { encryptSecret } from '../../src/platform/crypto';
import { personalDataOf } from '../../src/platform/modules';
import type { Db } from '../../src/platform/db/knex';
import { createStorage } from '../../src/platform/storage';
import { call, signIn } from './fixtures';

const GUESTS = 10_000;
const CHUNK = 1_000;

/** Where a value of the bench's guests still lives: every text and JSON column of every table, searched. */
async function leftovers(db: Db): Promise<string[]> {
  const { rows: columns } = await db.raw<{ rows: { table_name: string; column_name: string }[] }>(
    `SELECT c.table_name, c.column_name FROM information_schema.columns c
       JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
      WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE'
        AND c.data_type IN ('text', 'character varying', 'jsonb', 'json', 'ARRAY', 'tsvector')`,
  );
  const patterns = ['%Истёкшая%', '%истекшая%', '%@bench-retention.test%', '%Паспорт 45%'];
  const hits: string[] = [];
  for (const { table_name: table, column_name: column } of columns) {
    const [{ count }] = await db(table).whereRaw('??::text ILIKE ANY (?)', [column, patterns]).count({ count: '*' });
    if (Number(count) > 0) hits.push(`${table}.${column} (${count})`);
  }
  return hits;
}

/** The guests' stays: one past checked-out booking each, its guest columns and notes naming them, in one room. */
async function staysOf(
  db: Db,
  hotelId: string,
  room: { id: string; category_id: string },
  guestIds: string[],
  from: number,
) {
  const bookings = guestIds.map((_, i) => {
    const n = from + i;
    return {
      hotel_id: hotelId,
      room_id: room.id,
      category_id: room.category_id,
      kind: 'nightly',
      check_in: '2024-01-10',
      check_out: '2024-01-12',
      start_at: '2024-01-10T11:00:00Z',
      end_at: '2024-01-12T09:00:00Z',
      status: 'checked_out',
      guest_last_name: `Истёкшая${n}`,
      guest_first_name: 'Гостья',
      guest_phone: `+7900${String(n).padStart(7, '0')}`,
      guest_email: `expired-${n}@bench-retention.test`,
      notes: `Гостья Истёкшая${n}, +7900${String(n).padStart(7, '0')}`,
      price: 6000,
    };
  });
  const ids: { id: string }[] = await db('bookings').insert(bookings).returning('id');
  await db('booking_guests').insert(
    ids.map(({ id }, i) => ({ hotel_id: hotelId, booking_id: id, guest_id: guestIds[i], is_primary: true })),
  );
}

/**
 * 10,000 guests whose period expired (names, phones, e-mails, passport envelopes, notes) in one hotel, each with a
 * past stay naming them: the sweep's passes (the activity's work, in this process) timed until nothing is left,
 * then every text and JSON column of every table searched for them.
 */
export async function benchRetention(
  baseUrl: string,
  db: Db,
  email: string,
  env: Record<string, string | undefined>,
): Promise<string[]> {
  const { hotel, token } = await signIn(baseUrl, email);
  const slug = hotel.split('/').pop()!;
  const [{ id: hotelId }] = await db('hotels').where({ slug }).select('id');
  const config = loadConfig(env);
  await db('retention_settings').where({ hotel_id: hotelId }).update({ guest_data_days: 30 });
  const category = await call<{ id: string }>(baseUrl, 'POST', `${hotel}/room-categories`, token, {
    name: 'Retention bench',
    base_price: 3000,
  });
  const room = await call<{ id: string; category_id: string }>(baseUrl, 'POST', `${hotel}/rooms`, token, {
    number: 'R1',
    category_id: category.id,
    floor: 1,
  });
  for (let from = 0; from < GUESTS; from += CHUNK) {
    const rows = Array.from({ length: CHUNK }, (_, i) => {
      const n = from + i;
      return {
        hotel_id: hotelId,
        last_name: `Истёкшая${n}`,
        first_name: 'Гостья',
        search_name: `истекшая${n} гостья`,
        phone: `+7900${String(n).padStart(7, '0')}`,
        phone_normalized: `+7900${String(n).padStart(7, '0')}`,
        email: `expired-${n}@bench-retention.test`,
        birth_date: '1980-01-01',
        notes: `Паспорт 45 ${n}`,
        passport_number_encrypted: encryptSecret(String(700000 + n), config.encryption),
        passport_key_id: config.encryption.currentKeyId,
        created_at: db.raw("now() - interval '1000 days'"),
      };
    });
    const ids: { id: string }[] = await db('guests').insert(rows).returning('id');
    await staysOf(
      db,
      hotelId,
      room,
      ids.map(({ id }) => id),
      from,
    );
  }
  const retention = createRetentionService(db, config, createStorage(config.storage), personalDataOf(MODULES), {
    guests: undefined as never,
  });
  const now = new Date().toISOString();
  const started = performance.now();
  let erased = 0;
  let failed = 0;
  let passes = 0;
  let after = null;
  for (;;) {
    const report = await retention.sweep(now, after);
    erased += report.erased;
    failed += report.failed.length;
    after = report.after;
    passes += 1;
    if (!report.more) break;
  }
  const seconds = (performance.now() - started) / 1000;
  const hits = await leftovers(db);
  return [
    `retention: ${erased} expired guests (one past stay each) erased in ${seconds.toFixed(1)} s ` +
      `(${passes} passes of the sweep's activity, ${failed} failed)`,
    `  columns of any table still holding their names, e-mails or notes afterwards: ${hits.length ? hits.join(', ') : 'none'}`,
  ];
}
