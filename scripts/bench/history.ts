import type { Db } from '../../src/platform/db/knex';

/**
 * A year of a hotel's history written straight into the database (fast; no flow runs): for every room, a two-night
 * stay every third day, checked out, at 3000 + the room's index roubles a night, with its guest folio and one
 * room-night line per night dated with the night. Reused by the benches that need a hotel with a past.
 */
export async function seedYearOfHistory(db: Db, hotelId: string, from: string, to: string): Promise<number> {
  await db.raw(
    `WITH stays AS (
       INSERT INTO bookings (hotel_id, room_id, category_id, kind, check_in, check_out, start_at, end_at, status,
         guest_last_name, guest_first_name, price, checked_in_at, checked_out_at)
       SELECT r.hotel_id, r.id, r.category_id, 'nightly', d::date, d::date + 2, d + interval '14 hours',
         d + interval '2 days 12 hours', 'checked_out', 'Историева', 'Анна', 2 * (3000 + row_number() OVER ()),
         d + interval '14 hours', d + interval '2 days 12 hours'
       FROM rooms r, generate_series(:from::timestamptz, :to::timestamptz - interval '2 days', interval '3 days') d
       WHERE r.hotel_id = :hotelId
       RETURNING id, hotel_id, check_in, price),
     folios_ AS (
       INSERT INTO folios (hotel_id, booking_id, payer_kind) SELECT hotel_id, id, 'guest' FROM stays
       RETURNING id, hotel_id, booking_id)
     INSERT INTO folio_lines (hotel_id, folio_id, kind, amount, vat_rate, business_date, description, posted_via, source)
     SELECT f.hotel_id, f.id, 'room_night', s.price / 2, 'none', s.check_in + n, 'Проживание', 'bench',
       'room_night:' || s.id || ':' || (s.check_in + n)
     FROM folios_ f JOIN stays s ON s.id = f.booking_id, generate_series(0, 1) n`,
    { hotelId, from, to },
  );
  const row = (await db('folio_lines').where({ hotel_id: hotelId }).count('* as n').first()) as { n: string };
  return Number(row.n);
}

/** A 200-room hotel with a year of history: a year of occupancy, ADR and RevPAR by day, timed (median of 20). */
export async function benchReports(baseUrl: string, db: Db, hotel: { token: string; hotelId: string; hotel: string }) {
  const to = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  const from = new Date(Date.parse(to) - 364 * 86_400_000).toISOString().slice(0, 10);
  const lines = await seedYearOfHistory(db, hotel.hotelId, from, to);
  const times: number[] = [];
  for (let i = 0; i < 21; i++) {
    const started = performance.now();
    const response = await fetch(`${baseUrl}${hotel.hotel}/reports/performance?from=${from}&to=${to}`, {
      headers: { authorization: `Bearer ${hotel.token}` },
    });
    if (response.status !== 200) throw new Error(`performance report: ${response.status}`);
    await response.json();
    if (i > 0) times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))].toFixed(0);
  return [
    `reports: a year (${from}..${to}) of occupancy/ADR/RevPAR by day, 200 rooms, ${lines} folio lines: ` +
      `median ${at(0.5)} ms, p95 ${at(0.95)} ms (target < 300 ms)`,
  ];
}
