import pg from 'pg';
import { as, registerHotel, type RegisteredHotel } from '../helpers/accounts';
import { createTestApp, type TestApp } from '../helpers/app';

/**
 * Two staff requests of a hotel at a time and, in their own lane, one of its guests' (the widget, named by the slug);
 * a waiter is refused after 200 ms. The guest profiles are held locked, so the hotel's first widget lookup sticks in
 * its handler.
 */
let t: TestApp;
let owner: RegisteredHotel;
beforeAll(async () => {
  t = createTestApp({
    HOTEL_MAX_CONCURRENT_REQUESTS: '2',
    HOTEL_QUEUE_TIMEOUT_MS: '200',
    DATABASE_API_LOCK_TIMEOUT_MS: '20000',
  });
  owner = await registerHotel(t);
});
afterAll(() => t.close());

const lookup = () => t.http.get(`/api/widget/${owner.slug}/guests/lookup`).query({ email: 'guest@example.test' });

it("a hotel's guests queue in a lane of their own: a stuck widget request holds up the next guest, never the desk", async () => {
  const holder = new pg.Client({ connectionString: t.config.databaseUrl });
  await holder.connect();
  await holder.query('BEGIN');
  await holder.query('LOCK TABLE guests IN ACCESS EXCLUSIVE MODE');
  const { rows } = await holder.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  try {
    const stuck = lookup().then((response) => response.status);
    // The guest's request has taken the lane's one place once it waits on the holder's lock.
    for (let blocked = 0; blocked === 0; await new Promise((resolve) => setTimeout(resolve, 20))) {
      const waiting = await holder.query<{ blocked: number }>(
        'SELECT count(*)::int AS blocked FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))',
        [rows[0].pid],
      );
      blocked = waiting.rows[0].blocked;
    }
    const next = await lookup();
    expect(next.status).toBe(503);
    expect(next.body.code).toBe('hotel_busy');
    // The desk's own lane is free.
    await t.http.get(`/api/hotels/${owner.slug}/settings`).set(as(owner.accessToken)).expect(200);
    await holder.query('ROLLBACK');
    expect(await stuck).toBe(200);
  } finally {
    await holder.end();
  }
  await lookup().expect(200);
});
