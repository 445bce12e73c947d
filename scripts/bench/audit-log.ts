import type { Db } from '../../src/platform/db/knex';
import { call, signIn } from './fixtures';

const NIGHTS = 731;
const SIZES = [11, 22];

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/**
 * The audit log's commit on a bulk write: `PUT /restrictions` of 11 and 22 categories' 731 nights each (about
 * 8,000 and 16,000 rows, each an entry numbered and chained at commit), each into categories not written yet.
 */
export async function benchAuditLog(baseUrl: string, db: Db, email: string): Promise<string[]> {
  const { token, hotel } = await signIn(baseUrl, email);
  const { hotel_id: hotelId } = (await db('users').where({ email }).first('hotel_id')) as { hotel_id: string };
  const categories: string[] = [];
  for (let index = 0; index < SIZES.reduce((sum, size) => sum + size, 0); index += 1)
    categories.push(
      (
        await call<{ id: string }>(baseUrl, 'POST', `${hotel}/room-categories`, token, {
          name: `Bulk ${index}`,
          base_price: 5000,
        })
      ).id,
    );
  const entries = async () =>
    Number(((await db('audit_entries').where({ hotel_id: hotelId }).count({ n: '*' })) as { n: string }[])[0].n);
  const lines = ['audit log: PUT /restrictions, every night of 731 of each category (one request, one transaction)'];
  let next = 0;
  for (const size of SIZES) {
    const items = categories
      .slice(next, next + size)
      .map((category_id) => ({ category_id, from: day(1), to: day(NIGHTS), min_stay_arrival: 2 }));
    next += size;
    const before = await entries();
    const started = performance.now();
    await call(baseUrl, 'PUT', `${hotel}/restrictions`, token, { items });
    const ms = performance.now() - started;
    lines.push(`  ${size} categories: ${(await entries()) - before} entries, ${(ms / 1000).toFixed(2)} s`);
  }
  lines.push('audit log: the commit alone of one transaction inserting N room categories (N entries to number)');
  for (const rows of [8000, 16000, 32000]) {
    const trx = await db.transaction();
    await trx.raw(
      `INSERT INTO room_categories (hotel_id, name, base_price)
         SELECT ?, 'Commit ' || ? || ' ' || n, 1000 FROM generate_series(1, ?) AS n`,
      [hotelId, rows, rows],
    );
    const started = performance.now();
    await trx.commit();
    lines.push(`  ${rows} entries: commit ${((performance.now() - started) / 1000).toFixed(2)} s`);
  }
  return lines;
}
