import { loadConfig } from '../../src/config';
import { createRetentionService } from '../../src/modules/retention/retention.service';
import { encryptSecret } from '../../src/platform/crypto';
import type { Db } from '../../src/platform/db/knex';
import { createStorage } from '../../src/platform/storage';
import { signIn } from './fixtures';

const GUESTS = 10_000;
const CHUNK = 1_000;

/**
 * 10,000 guests whose period expired (names, phones, e-mails, passport envelopes, notes) in one hotel: the sweep's
 * passes (the activity's work, in this process) timed until nothing is left, then the database searched for them.
 */
export async function benchRetention(
  baseUrl: string,
  db: Db,
  email: string,
  env: Record<string, string | undefined>,
): Promise<string[]> {
  const { hotel } = await signIn(baseUrl, email);
  const slug = hotel.split('/').pop()!;
  const [{ id: hotelId }] = await db('hotels').where({ slug }).select('id');
  const config = loadConfig(env);
  await db('retention_settings').where({ hotel_id: hotelId }).update({ guest_data_days: 30 });
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
        email: `expired-${n}@bench.test`,
        birth_date: '1980-01-01',
        notes: `Паспорт ${n}`,
        passport_number_encrypted: encryptSecret(String(700000 + n), config.encryption),
        passport_key_id: config.encryption.currentKeyId,
        created_at: db.raw("now() - interval '400 days'"),
      };
    });
    await db('guests').insert(rows);
  }
  const retention = createRetentionService(db, config, createStorage(config.storage), {
    guests: undefined as never,
  });
  const now = new Date().toISOString();
  const started = performance.now();
  let erased = 0;
  let passes = 0;
  for (;;) {
    const report = await retention.sweep(now);
    erased += report.erased;
    passes += 1;
    if (!report.more) break;
  }
  const seconds = (performance.now() - started) / 1000;
  const [{ count }] = await db('guests')
    .where({ hotel_id: hotelId })
    .where((any) =>
      any
        .whereLike('last_name', 'Истёкшая%')
        .orWhereLike('email', 'expired-%')
        .orWhereNotNull('passport_number_encrypted'),
    )
    .count({ count: '*' });
  return [
    `retention: ${erased} expired guests erased in ${seconds.toFixed(1)} s (${passes} passes of the sweep's activity)`,
    `  guests still found by name, e-mail or passport afterwards: ${Number(count)}`,
  ];
}
