import pg from 'pg';
import { as, registerHotel, type RegisteredHotel } from '../helpers/accounts';
import { createTestApp, type TestApp } from '../helpers/app';

/**
 * One request of a hotel at a time, a waiter refused after 200 ms: while the hotel's one place is taken by a staff
 * request stuck on a locked row, its public routes (the widget, named by the slug) queue in the same lane and are
 * refused with 503 hotel_busy, while another hotel's widget answers at once.
 */
let t: TestApp;
let owner: RegisteredHotel;
let other: RegisteredHotel;
beforeAll(async () => {
  t = createTestApp({
    HOTEL_MAX_CONCURRENT_REQUESTS: '1',
    HOTEL_QUEUE_TIMEOUT_MS: '200',
    DATABASE_API_LOCK_TIMEOUT_MS: '20000',
  });
  [owner, other] = await Promise.all([registerHotel(t), registerHotel(t)]);
});
afterAll(() => t.close());

it("a hotel's public routes share its bulkhead lane with its staff routes; another hotel's do not wait", async () => {
  const holder = new pg.Client({ connectionString: t.config.databaseUrl });
  await holder.connect();
  await holder.query('BEGIN');
  await holder.query('SELECT 1 FROM hotel_settings WHERE hotel_id = $1 FOR UPDATE', [owner.hotelId]);
  try {
    const stuck = t.http
      .patch(`/api/hotels/${owner.slug}/settings`)
      .set(as(owner.accessToken))
      .send({ no_show_hours: 5 })
      .then((response) => response.status);
    // The staff request has taken the hotel's one place once it waits on the row.
    for (let waiting = 0; waiting === 0;) {
      const { rows } = await holder.query<{ waiting: number }>(
        "SELECT count(*)::int AS waiting FROM pg_locks WHERE NOT granted AND locktype IN ('transactionid', 'tuple')",
      );
      waiting = rows[0].waiting;
    }
    const mine = await t.http.get(`/api/widget/${owner.slug}/config`);
    expect(mine.status).toBe(503);
    expect(mine.body.code).toBe('hotel_busy');
    await t.http.get(`/api/widget/${other.slug}/config`).expect(200);
    await holder.query('ROLLBACK');
    expect(await stuck).toBe(200);
  } finally {
    await holder.end();
  }
  await t.http.get(`/api/widget/${owner.slug}/config`).expect(200);
});
