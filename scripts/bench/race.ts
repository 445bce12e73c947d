import type { Db } from '../../src/platform/db/knex';
import { day } from './bookings';
import { call, signIn } from './fixtures';

const ROOMS = 10;
const RACERS = 1000;

/**
 * 1,000 requests at once for the last rooms of one category on the same nights: staff bookings naming the category
 * and widget bookings, interleaved. Exactly `ROOMS` may win; afterwards the database is asked whether any room holds
 * two live stays on one night (it must not: the exclusion constraint), and every answer is counted by status.
 */
export async function benchRace(baseUrl: string, db: Db, email: string): Promise<string[]> {
  const { token, hotel } = await signIn(baseUrl, email);
  const slug = hotel.split('/').pop()!;
  const category = await call<{ id: string; hotel_id: string }>(baseUrl, 'POST', `${hotel}/room-categories`, token, {
    name: 'Race',
    base_price: 5000,
  });
  // Staff bookings that name a category are placed by the hotel's strategy (the default, `manual`, needs a room).
  const settings = await fetch(`${baseUrl}${hotel}/settings`, { headers: { authorization: `Bearer ${token}` } });
  await settings.arrayBuffer();
  await fetch(`${baseUrl}${hotel}/settings`, {
    method: 'PATCH',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${token}`,
      'if-match': settings.headers.get('etag')!,
    },
    body: JSON.stringify({ room_assignment_strategy: 'spread' }),
  }).then((response) => {
    if (!response.ok) throw new Error(`PATCH settings: ${response.status}`);
  });
  for (let i = 0; i < ROOMS; i++) {
    await call(baseUrl, 'POST', `${hotel}/rooms`, token, { number: `R${i + 1}`, category_id: category.id });
  }
  const stay = { category_id: category.id, check_in: day(20), check_out: day(23), guest_first_name: 'Race' };
  const send = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    }).then(async (response) => {
      await response.arrayBuffer();
      return { status: response.status, kind: path.startsWith('/api/widget') ? 'widget' : 'staff' };
    });
  const racers = Array.from({ length: RACERS }, (_, i) =>
    i % 2 === 0
      ? () =>
          send(`${hotel}/bookings`, { ...stay, guest_last_name: `Staff ${i}` }, { authorization: `Bearer ${token}` })
      : () =>
          send(`/api/widget/${slug}/bookings`, {
            ...stay,
            guests_count: 1,
            guest_last_name: `Widget ${i}`,
            guest_email: `race-${i}@example.test`,
            guest_phone: `+7916${String(1000000 + i).slice(-7)}`,
          }),
  );
  const started = performance.now();
  const answers = await Promise.all(racers.map((race) => race()));
  const seconds = (performance.now() - started) / 1000;

  const { rows } = await db.raw(
    `SELECT
       (SELECT count(*) FROM bookings WHERE hotel_id = ? AND category_id = ?
          AND status IN ('inquiry', 'confirmed', 'checked_in'))::int AS sold,
       (SELECT count(*) FROM bookings a JOIN bookings b ON a.room_id = b.room_id AND a.id < b.id
          WHERE a.hotel_id = ? AND b.hotel_id = ? AND a.category_id = ?
            AND a.status IN ('inquiry', 'confirmed', 'checked_in') AND b.status IN ('inquiry', 'confirmed', 'checked_in')
            AND tstzrange(a.start_at, a.end_at) && tstzrange(b.start_at, b.end_at))::int AS "soldTwice"`,
    [category.hotel_id, category.id, category.hotel_id, category.hotel_id, category.id],
  );
  const { sold, soldTwice } = rows[0] as { sold: number; soldTwice: number };
  const tally = new Map<string, number>();
  for (const { status, kind } of answers) tally.set(`${kind} ${status}`, (tally.get(`${kind} ${status}`) ?? 0) + 1);
  const statuses = [...tally.entries()].sort().map(([key, count]) => `${key}: ${count}`);
  const failures = answers.filter((answer) => answer.status >= 500).length;
  return [
    `race: ${RACERS} requests at once for the ${ROOMS} rooms of one category (staff and widget bookings, interleaved)`,
    `  answered in ${seconds.toFixed(1)} s; ${statuses.join(', ')}`,
    `  sold ${sold} of ${ROOMS} rooms, ${soldTwice} nights sold twice, ${failures} answers 5xx`,
  ];
}
