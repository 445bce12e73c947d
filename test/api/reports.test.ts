import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { createTestApp, type TestApp } from '../helpers/app';
import { asBytes } from '../helpers/files';
import { addStaff, as, registerHotel, type RegisteredHotel } from '../helpers/accounts';
import { localDay } from '../helpers/dates';
import { bringStayTo } from '../helpers/stays';
import { createCategory, createRoom } from '../helpers/structure';

let t: TestApp;
let owner: RegisteredHotel;
let other: RegisteredHotel;
const bookings: string[] = [];

interface Line {
  id: string;
  kind: string;
  amount: string;
  business_date: string;
  source: string;
  corrects_line_id: string | null;
}

const api = (hotel: RegisteredHotel, path: string) => `/api/hotels/${hotel.slug}${path}`;
const get = (path: string, token = owner.accessToken) => t.http.get(api(owner, path)).set(as(token));
const cents = (amount: string) => BigInt(amount.replace('.', ''));
/** Kopecks divided by a count, rounded half away from zero. */
const divided = (value: bigint, count: number) => {
  const sign = value < 0n ? -1n : 1n;
  return sign * ((sign * value * 2n + BigInt(count)) / (2n * BigInt(count)));
};
const money = (value: bigint) =>
  `${value < 0n ? '-' : ''}${(value < 0n ? -value : value) / 100n}.${String((value < 0n ? -value : value) % 100n).padStart(2, '0')}`;

async function stay(hotel: RegisteredHotel, categoryId: string, from: number, nights: number, price: string) {
  const room = await createRoom(t, hotel, categoryId);
  const booked = await t.http
    .post(api(hotel, '/bookings'))
    .set(as(hotel.accessToken))
    .send({
      room_id: room.id,
      check_in: localDay(from),
      check_out: localDay(from + nights),
      guest_last_name: 'Отчётова',
      guest_first_name: 'Анна',
      price,
    })
    .expect(201);
  return booked.body.id as string;
}

/** Every line of our bookings' folios, read through the folio API: the independent side of every comparison. */
async function folioLines(): Promise<Line[]> {
  const lines: Line[] = [];
  for (const id of bookings) {
    const folio = (await get(`/bookings/${id}/folio`).expect(200)).body as { folios: { lines: Line[] }[] };
    lines.push(...folio.folios.flatMap((f) => f.lines));
  }
  return lines;
}

/** Room revenue lines: room nights, and corrections that point to one. */
function roomLines(lines: Line[]) {
  const nights = new Set(lines.filter((line) => line.kind === 'room_night').map((line) => line.id));
  return lines.filter(
    (line) => line.kind === 'room_night' || (line.kind === 'correction' && nights.has(line.corrects_line_id ?? '')),
  );
}

const FROM = localDay(-3);
const TO = localDay(0);

beforeAll(async () => {
  t = createTestApp();
  [owner, other] = await Promise.all([registerHotel(t), registerHotel(t)]);
  const category = await createCategory(t, owner);
  // Three nights at 10 000 (3333.33 + 3333.33 + 3333.34), checked out; two nights at 7000.01, in house.
  bookings.push(await stay(owner, category.id, -3, 3, '10000.00'));
  bookings.push(await stay(owner, category.id, -2, 2, '7000.01'));
  // Ahead: on the books, not checked in.
  bookings.push(await stay(owner, category.id, 5, 2, '5000.00'));
  // Rooms made today are not available on earlier nights: these are a hotel's rooms of a month.
  await t.db.raw(`UPDATE rooms SET created_at = now() - interval '30 days' WHERE hotel_id = ?`, [owner.hotelId]);
  await bringStayTo(t, owner, bookings[0], 'checked_out');
  await bringStayTo(t, owner, bookings[1], 'checked_in');
  await bringStayTo(t, owner, bookings[2], 'confirmed');
  for (const [amount, method] of [
    ['4000.00', 'cash'],
    ['6000.00', 'card'],
    ['-500.00', 'cash'],
  ])
    await t.http
      .post(api(owner, `/bookings/${bookings[0]}/payments`))
      .set(as(owner.accessToken))
      .send({ amount, method })
      .expect(201);
  // A correction of a room night: room revenue on today's business date.
  const night = (await folioLines()).find((line) => line.kind === 'room_night')!;
  await t.http
    .post(api(owner, `/bookings/${bookings[1]}/folio/lines`))
    .set(as(owner.accessToken))
    .send({ kind: 'correction', amount: '-100.00', description: 'Скидка за шум', corrects_line_id: undefined })
    .expect(201);
  await t.http
    .post(api(owner, `/bookings/${bookings[0]}/folio/lines`))
    .set(as(owner.accessToken))
    .send({ kind: 'correction', amount: '-250.50', description: 'Пересчёт ночи', corrects_line_id: night.id })
    .expect(201);
});
afterAll(() => t.close());

describe('occupancy, ADR and RevPAR', () => {
  it('by day, reconcile with the room-night lines of the folios to the kopeck', async () => {
    const lines = roomLines(await folioLines());
    const { body } = await get(`/reports/performance?from=${FROM}&to=${TO}`).expect(200);
    const rooms = 3; // the hotel's rooms, none out of order
    for (const period of body.periods as Record<string, string | number>[]) {
      const day = lines.filter((line) => line.business_date === period.period);
      const sold = day.filter((line) => line.kind === 'room_night').length;
      const revenue = day.reduce((sum, line) => sum + cents(line.amount), 0n);
      expect(period).toMatchObject({
        rooms_available: rooms,
        rooms_sold: sold,
        room_revenue: money(revenue),
        occupancy: ((sold / rooms) * 100).toFixed(2),
        adr: sold === 0 ? '0.00' : money(divided(revenue, sold)),
        revpar: money(divided(revenue, rooms)),
      });
    }
    const total = lines.filter((l) => l.business_date >= FROM && l.business_date <= TO);
    expect(
      money((body.periods as { room_revenue: string }[]).reduce((sum, p) => sum + cents(p.room_revenue), 0n)),
    ).toBe(money(total.reduce((sum, line) => sum + cents(line.amount), 0n)));
    expect(body.periods.map((p: { period: string }) => p.period)).toEqual([FROM, localDay(-2), localDay(-1), TO]);
  });

  it('by week and month sum the days', async () => {
    const days = (await get(`/reports/performance?from=${FROM}&to=${TO}`).expect(200)).body.periods as {
      rooms_sold: number;
      room_revenue: string;
    }[];
    for (const granularity of ['week', 'month']) {
      const { body } = await get(`/reports/performance?from=${FROM}&to=${TO}&granularity=${granularity}`).expect(200);
      const periods = body.periods as { rooms_sold: number; room_revenue: string; from: string; to: string }[];
      expect(periods[0].from).toBe(FROM);
      expect(periods.at(-1)!.to).toBe(TO);
      expect(periods.reduce((sum, p) => sum + p.rooms_sold, 0)).toBe(days.reduce((sum, d) => sum + d.rooms_sold, 0));
      expect(periods.reduce((sum, p) => sum + cents(p.room_revenue), 0n)).toBe(
        days.reduce((sum, d) => sum + cents(d.room_revenue), 0n),
      );
    }
  });

  it('come as CSV and XLSX with the same numbers', async () => {
    const json = (await get(`/reports/performance?from=${FROM}&to=${TO}`).expect(200)).body.periods as Record<
      string,
      string | number
    >[];
    const csv = await get(`/reports/performance?from=${FROM}&to=${TO}&format=csv`).expect(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    const rows = parse(csv.text, { delimiter: ';', columns: true, bom: true }) as Record<string, string>[];
    expect(rows.map((row) => [row.period, Number(row.rooms_sold), Number(row.room_revenue)])).toEqual(
      json.map((p) => [p.period, p.rooms_sold, Number(p.room_revenue)]),
    );
    const xlsx = await get(`/reports/performance?from=${FROM}&to=${TO}&format=xlsx`)
      .buffer(true)
      .parse(asBytes)
      .expect(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx.body as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    const header = (sheet.getRow(1).values as string[]).slice(1);
    const revenue = header.indexOf('room_revenue') + 1;
    expect(json.map((_p, i) => sheet.getRow(i + 2).getCell(revenue).value)).toEqual(
      json.map((p) => Number(p.room_revenue)),
    );
  });

  it('refuse a range backwards or over two years (422), and a malformed date (400)', async () => {
    expect((await get(`/reports/performance?from=${TO}&to=${FROM}`).expect(422)).body.code).toBe('report_range');
    await get('/reports/performance?from=2024-01-01&to=2026-01-01').expect(422);
    await get('/reports/performance?from=2024-01-01&to=2025-12-31').expect(200);
    await get('/reports/performance?from=2024-02-30&to=2024-03-01').expect(400);
    await get(`/reports/performance?from=${FROM}&to=${TO}&granularity=year`).expect(400);
    await get(`/reports/payments?from=${FROM}&to=${TO}&format=pdf`).expect(400);
  });
});

describe('day use and rooms out of order', () => {
  it('a day-use stay is apart from rooms sold; a room in maintenance is not available on its days', async () => {
    const hotel = await registerHotel(t);
    const category = await createCategory(t, hotel, { allow_hourly: true, hourly_base_price: 500 });
    const [room, closed] = [await createRoom(t, hotel, category.id), await createRoom(t, hotel, category.id)];
    const hourly = await t.http
      .post(api(hotel, '/bookings'))
      .set(as(hotel.accessToken))
      .send({
        room_id: room.id,
        start_at: new Date(Date.now() - 3_600_000).toISOString(),
        end_at: new Date(Date.now() + 3_600_000).toISOString(),
        guest_last_name: 'Часова',
        guest_first_name: 'Ида',
        price: '1500.00',
      })
      .expect(201);
    await bringStayTo(t, hotel, hourly.body.id as string, 'checked_in');
    await t.http
      .patch(api(hotel, `/rooms/${closed.id}/status`))
      .set(as(hotel.accessToken))
      .send({
        status: 'maintenance',
        maintenance_from: `${localDay(10)}T12:00:00Z`,
        maintenance_to: `${localDay(11)}T12:00:00Z`,
      })
      .expect(200);
    const read = async (from: string, to: string) =>
      (
        await t.http
          .get(api(hotel, `/reports/performance?from=${from}&to=${to}`))
          .set(as(hotel.accessToken))
          .expect(200)
      ).body.periods as Record<string, unknown>[];
    expect((await read(TO, TO))[0]).toMatchObject({
      rooms_sold: 0,
      room_revenue: '0.00',
      adr: '0.00',
      day_use_stays: 1,
      day_use_revenue: '1500.00',
    });
    expect((await read(localDay(9), localDay(12))).map((p) => [p.rooms_available, p.rooms_out_of_order])).toEqual([
      [2, 0],
      [1, 1],
      [1, 1],
      [2, 0],
    ]);
  });
});

describe('revenue, payments, lists', () => {
  it('revenue by category, source and tariff adds up to the room revenue', async () => {
    const lines = roomLines(await folioLines());
    const expected = money(lines.reduce((sum, line) => sum + cents(line.amount), 0n));
    const range = `from=${localDay(-3)}&to=${localDay(6)}`;
    for (const by of ['category', 'source', 'tariff']) {
      const { body } = await get(`/reports/revenue?${range}&by=${by}`).expect(200);
      const groups = body.groups as { revenue: string; nights: number }[];
      expect(money(groups.reduce((sum, g) => sum + cents(g.revenue), 0n))).toBe(expected);
      expect(groups.reduce((sum, g) => sum + g.nights, 0)).toBe(lines.filter((l) => l.kind === 'room_night').length);
    }
  });

  it('payments by method and staff member per day are the payment lines, with a sign a cashier reads', async () => {
    const lines = (await folioLines()).filter((line) => line.kind === 'payment' || line.kind === 'refund');
    const { body } = await get(`/reports/payments?from=${FROM}&to=${TO}`).expect(200);
    const rows = body.rows as { date: string; method: string; staff_id: string; net: string; received: string }[];
    expect(money(rows.reduce((sum, row) => sum + cents(row.net), 0n))).toBe(
      money(-lines.reduce((sum, line) => sum + cents(line.amount), 0n)),
    );
    const cash = rows.find((row) => row.method === 'cash')!;
    expect(cash).toMatchObject({ date: TO, staff_id: owner.userId, received: '4000.00', net: '3500.00' });
    expect(rows.find((row) => row.method === 'card')).toMatchObject({ net: '6000.00' });
  });

  it('arrivals, departures and in house of a date', async () => {
    const yesterday = (await get(`/reports/stays?date=${localDay(-1)}`).expect(200)).body;
    expect(yesterday.in_house.map((s: { booking_id: string }) => s.booking_id).sort()).toEqual(
      [bookings[0], bookings[1]].sort(),
    );
    const today = (await get(`/reports/stays?date=${TO}`).expect(200)).body;
    expect(today.departures.map((s: { booking_id: string }) => s.booking_id).sort()).toEqual(
      [bookings[0], bookings[1]].sort(),
    );
    expect((await get(`/reports/stays?date=${localDay(5)}`).expect(200)).body.arrivals).toEqual([
      expect.objectContaining({ booking_id: bookings[2], status: 'confirmed', guest: 'Отчётова Анна' }),
    ]);
  });

  it('on the books and pickup for future nights, against the same day last year', async () => {
    const { body } = await get(`/reports/on-the-books?from=${localDay(4)}&to=${localDay(7)}`).expect(200);
    expect(body.nights.map((n: Record<string, unknown>) => [n.date, n.rooms, n.revenue, n.pickup_rooms])).toEqual([
      [localDay(4), 0, '0.00', 0],
      [localDay(5), 1, '2500.00', 1],
      [localDay(6), 1, '2500.00', 1],
      [localDay(7), 0, '0.00', 0],
    ]);
    expect(body.nights[1]).toMatchObject({ last_year_rooms: 0, rooms_vs_last_year: 1, occupancy: '33.33' });
  });

  it('housekeeping status counts every room', async () => {
    const { body } = await get('/reports/housekeeping').expect(200);
    expect(body.rooms).toHaveLength(3);
    expect(body.by_status.reduce((sum: number, s: { count: number }) => sum + s.count, 0)).toBe(3);
    expect(body.rooms.filter((room: { occupied: boolean }) => room.occupied)).toHaveLength(1);
  });

  it('the tourist tax report is the tourist tax module’s, in the same formats', async () => {
    const month = TO.slice(0, 7);
    const own = (await get(`/tourist-tax/report?month=${month}`).expect(200)).body;
    expect((await get(`/reports/tourist-tax?month=${month}`).expect(200)).body).toEqual(own);
    const csv = await get(`/reports/tourist-tax?month=${month}&format=csv`).expect(200);
    const rows = parse(csv.text, { delimiter: ';', columns: true, bom: true }) as Record<string, string>[];
    expect(rows[0]).toMatchObject({ category: 'taxable', base: own.base, tax: own.tax });
  });
});

describe('the daily report', () => {
  it('as JSON with the day’s figures and the chart’s 30 + 30 days, and as a PDF', async () => {
    const { body } = await get(`/reports/daily?date=${localDay(-1)}`).expect(200);
    const performance = (await get(`/reports/performance?from=${localDay(-1)}&to=${localDay(-1)}`).expect(200)).body;
    expect(body.figures).toEqual(performance.periods[0]);
    expect(body.history).toHaveLength(30);
    expect(body.on_the_books).toHaveLength(30);
    expect(body.in_house).toBe(2);
    const lists = (await get(`/reports/stays?date=${localDay(-1)}`).expect(200)).body;
    expect([body.arrivals, body.departures, body.in_house]).toEqual([
      lists.arrivals.length,
      lists.departures.length,
      lists.in_house.length,
    ]);
    const pdf = await get(`/reports/daily?date=${localDay(-1)}&format=pdf`)
      .buffer(true)
      .parse(asBytes)
      .expect(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(
      Buffer.from(pdf.body as Uint8Array)
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
  });
});

describe('another hotel and roles', () => {
  it('another hotel’s staff get nothing of ours, and see none of it in theirs', async () => {
    await t.http
      .get(api(owner, `/reports/performance?from=${FROM}&to=${TO}`))
      .set(as(other.accessToken))
      .expect(403);
    const theirs = await t.http
      .get(api(other, `/reports/performance?from=${FROM}&to=${TO}`))
      .set(as(other.accessToken))
      .expect(200);
    expect(theirs.body.periods.every((p: { rooms_sold: number }) => p.rooms_sold === 0)).toBe(true);
    const lists = await t.http
      .get(api(other, `/reports/stays?date=${TO}`))
      .set(as(other.accessToken))
      .expect(200);
    expect(lists.body.departures).toEqual([]);
  });

  it('the money reports are the management’s and accountant’s, not the desk’s', async () => {
    const receptionist = await addStaff(t, owner, 'receptionist');
    const accountant = await addStaff(t, owner, 'accountant');
    await get(`/reports/payments?from=${FROM}&to=${TO}`, receptionist.accessToken).expect(403);
    await get(`/reports/payments?from=${FROM}&to=${TO}`, accountant.accessToken).expect(200);
    await get(`/reports/stays?date=${TO}`, receptionist.accessToken).expect(200);
  });
});
