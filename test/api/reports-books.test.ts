import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { createTestApp, type TestApp } from '../helpers/app';
import { asBytes } from '../helpers/files';
import { addStaff, as, registerHotel, type RegisteredHotel } from '../helpers/accounts';
import { localDay } from '../helpers/dates';
import { messagesTo } from '../helpers/mail';
import { outboxWorkflowsAtRest, withTemporal } from '../helpers/workflows';
import { bringStayTo } from '../helpers/stays';
import { createCategory, createRoom } from '../helpers/structure';

/** The reports against the books as they are written: deleted payments, closed days, moves, corrections, files. */
let t: TestApp;
afterAll(() => t.close());
beforeAll(() => {
  t = createTestApp();
});

const api = (hotel: RegisteredHotel, path: string) => `/api/hotels/${hotel.slug}${path}`;
const get = (hotel: RegisteredHotel, path: string) => t.http.get(api(hotel, path)).set(as(hotel.accessToken));
const send = (hotel: RegisteredHotel, method: 'post' | 'patch' | 'delete', path: string, body?: object) =>
  t.http[method](api(hotel, path)).set(as(hotel.accessToken)).send(body);
const binary = (hotel: RegisteredHotel, path: string) => get(hotel, path).buffer(true).parse(asBytes).expect(200);

async function book(hotel: RegisteredHotel, roomId: string, from: number, nights: number, price: string) {
  const booked = await send(hotel, 'post', '/bookings', {
    room_id: roomId,
    check_in: localDay(from),
    check_out: localDay(from + nights),
    guest_last_name: 'Книгова',
    guest_first_name: 'Ольга',
    price,
  }).expect(201);
  return booked.body.id as string;
}

/** The hotel's rooms as if built a month ago (rooms made after a night are not available on it). */
const builtLongAgo = (hotel: RegisteredHotel) =>
  t.db.raw(`UPDATE rooms SET created_at = now() - interval '30 days' WHERE hotel_id = ?`, [hotel.hotelId]);

interface Line {
  id: string;
  kind: string;
  amount: string;
  business_date: string;
  source: string;
}
const cents = (amount: string) => BigInt(amount.replace('.', ''));
const money = (value: bigint) =>
  `${value < 0n ? '-' : ''}${(value < 0n ? -value : value) / 100n}.${String((value < 0n ? -value : value) % 100n).padStart(2, '0')}`;
/** The room-night lines posted so far (at check-in today, night by night by the night audit, the rest at check-out). */
const nightLines = async (hotel: RegisteredHotel, id: string) =>
  (await linesOf(hotel, id)).filter((line) => line.kind === 'room_night');
const nightOf = (line: Line) => line.source.slice(-10);
const linesOf = async (hotel: RegisteredHotel, id: string) =>
  ((await get(hotel, `/bookings/${id}/folio`).expect(200)).body as { folios: { lines: Line[] }[] }).folios.flatMap(
    (folio) => folio.lines,
  );

describe('the cash desk report', () => {
  it('keeps a deleted payment’s method and cashier, and attributes its removal to whoever removed it', async () => {
    const hotel = await registerHotel(t);
    const desk = await addStaff(t, hotel, 'receptionist');
    const room = await createRoom(t, hotel, (await createCategory(t, hotel)).id);
    const id = await book(hotel, room.id, -1, 2, '8000.00');
    await bringStayTo(t, hotel, id, 'checked_in');
    const paid = await t.http
      .post(api(hotel, `/bookings/${id}/payments`))
      .set(as(desk.accessToken))
      .send({ amount: '4000.00', method: 'cash' })
      .expect(201);
    await send(hotel, 'delete', `/bookings/${id}/payments/${paid.body.payment.id}`).expect(200);
    const { body } = await get(hotel, `/reports/payments?from=${localDay(0)}&to=${localDay(0)}`).expect(200);
    expect(body.rows).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ method: 'cash', staff_id: desk.id, received: '4000.00', net: '4000.00' }),
        expect.objectContaining({ method: 'cash', staff_id: hotel.userId, received: '0.00', removed: '-4000.00' }),
      ]),
    );
    expect(body.rows).toHaveLength(2);
  });
});

describe('rooms available and sold', () => {
  it('a closed room, a room built after the night and a maintenance window are judged per night', async () => {
    const hotel = await registerHotel(t);
    const category = await createCategory(t, hotel);
    const [open, closed, repaired] = [
      await createRoom(t, hotel, category.id),
      await createRoom(t, hotel, category.id),
      await createRoom(t, hotel, category.id),
    ];
    expect(open.id).toBeTruthy();
    await send(hotel, 'patch', `/rooms/${closed.id}/status`, { status: 'closed' }).expect(200);
    // 09:00–09:30 in Moscow on day 3: the morning of night 2 (it ends at 12:00), before night 3 (from 14:00).
    await send(hotel, 'patch', `/rooms/${repaired.id}/status`, {
      status: 'maintenance',
      maintenance_from: `${localDay(3)}T06:00:00Z`,
      maintenance_to: `${localDay(3)}T06:30:00Z`,
    }).expect(200);
    const periods = (await get(hotel, `/reports/performance?from=${localDay(2)}&to=${localDay(3)}`).expect(200)).body
      .periods as { rooms_available: number; rooms_out_of_order: number }[];
    expect(periods.map((p) => [p.rooms_available, p.rooms_out_of_order])).toEqual([
      [1, 2],
      [2, 1],
    ]);
    const before = (await get(hotel, `/reports/performance?from=${localDay(-5)}&to=${localDay(-5)}`).expect(200)).body;
    expect(before.periods[0]).toMatchObject({ rooms_available: 0, rooms_out_of_order: 0 });
  });

  it('a night posted on a later business date (a closed day) is sold on its night, its revenue on its date', async () => {
    const hotel = await registerHotel(t);
    const room = await createRoom(t, hotel, (await createCategory(t, hotel)).id);
    await builtLongAgo(hotel);
    await send(hotel, 'post', '/folio-settings/close-day', { date: localDay(-1) }).expect(200);
    const id = await book(hotel, room.id, -1, 2, '6000.00');
    await bringStayTo(t, hotel, id, 'checked_out');
    const nights = await nightLines(hotel, id);
    // Night -1's line went into the next open day.
    expect(nights.filter((line) => nightOf(line) === localDay(-1)).map((line) => line.business_date)).toEqual([
      localDay(0),
    ]);
    const { body } = await get(hotel, `/reports/performance?from=${localDay(-1)}&to=${localDay(0)}`).expect(200);
    expect(body.periods.map((p: Record<string, unknown>) => [p.rooms_sold, p.room_revenue])).toEqual([
      [1, '0.00'],
      [
        nights.filter((line) => nightOf(line) === localDay(0)).length,
        money(nights.reduce((sum, line) => sum + cents(line.amount), 0n)),
      ],
    ]);
  });

  it('a stay left early holds no nights on the books after its departure', async () => {
    const hotel = await registerHotel(t);
    const room = await createRoom(t, hotel, (await createCategory(t, hotel)).id);
    const id = await book(hotel, room.id, -1, 4, '8000.00');
    await bringStayTo(t, hotel, id, 'checked_out');
    const { body } = await get(hotel, `/reports/on-the-books?from=${localDay(0)}&to=${localDay(2)}`).expect(200);
    expect(body.nights.map((n: { rooms: number }) => n.rooms)).toEqual([0, 0, 0]);
  });
});

describe('room revenue', () => {
  it('goes to the category of the room each night was in, and the lists show the room of the night', async () => {
    const hotel = await registerHotel(t);
    const [first, second] = [await createCategory(t, hotel), await createCategory(t, hotel)];
    const [a, b] = [await createRoom(t, hotel, first.id), await createRoom(t, hotel, second.id)];
    const id = await book(hotel, a.id, -1, 3, '9000.00');
    await bringStayTo(t, hotel, id, 'checked_in');
    await send(hotel, 'post', `/bookings/${id}/move`, { room_id: b.id, from: localDay(1), reason: 'Ремонт' }).expect(
      200,
    );
    // Each night posted goes to the category of its room that night: before the move the first, then the second.
    const expected: Record<string, [number, bigint]> = {};
    for (const line of await nightLines(hotel, id)) {
      const key = nightOf(line) < localDay(1) ? first.id : second.id;
      const [count, sum] = expected[key] ?? [0, 0n];
      expected[key] = [count + 1, sum + cents(line.amount)];
    }
    const { body } = await get(hotel, `/reports/revenue?from=${localDay(-1)}&to=${localDay(1)}&by=category`).expect(
      200,
    );
    const groups = body.groups as { key: string; nights: number; revenue: string }[];
    expect(Object.fromEntries(groups.map((g) => [g.key, [g.nights, g.revenue]]))).toEqual(
      Object.fromEntries(Object.entries(expected).map(([key, [count, sum]]) => [key, [count, money(sum)]])),
    );
    const night = async (day: number) =>
      (await get(hotel, `/reports/stays?date=${localDay(day)}`).expect(200)).body.in_house[0];
    expect(await night(0)).toMatchObject({ room: a.number, category: first.name });
    expect(await night(1)).toMatchObject({ room: b.number, category: second.name });
  });

  it('a correction of a correction of a night is room revenue; lodging discounts stand beside it', async () => {
    const hotel = await registerHotel(t);
    const room = await createRoom(t, hotel, (await createCategory(t, hotel)).id);
    const id = await book(hotel, room.id, -1, 1, '5000.00');
    await bringStayTo(t, hotel, id, 'checked_out');
    const [night] = await nightLines(hotel, id);
    const first = await send(hotel, 'post', `/bookings/${id}/folio/lines`, {
      kind: 'correction',
      amount: '-500.00',
      description: 'Скидка за шум',
      corrects_line_id: night.id,
    }).expect(201);
    await send(hotel, 'post', `/bookings/${id}/folio/lines`, {
      kind: 'correction',
      amount: '200.00',
      description: 'Скидка за шум была меньше',
      corrects_line_id: first.body.id,
    }).expect(201);
    await send(hotel, 'post', `/bookings/${id}/folio/lines`, {
      kind: 'discount',
      amount: '-300.00',
      description: 'Скидка постоянному гостю',
    }).expect(201);
    const { body } = await get(hotel, `/reports/performance?from=${localDay(0)}&to=${localDay(0)}`).expect(200);
    expect(body.periods[0]).toMatchObject({ room_revenue: '-300.00', room_discounts: '-300.00' });
    const range = `from=${localDay(-1)}&to=${localDay(0)}`;
    expect((await get(hotel, `/reports/revenue?${range}&by=source`).expect(200)).body.groups[0].revenue).toBe(
      '4700.00',
    );
  });
});

describe('the files', () => {
  it('CSV text that a spreadsheet would run as a formula is made inert; XLSX cells are typed by their column', async () => {
    const hotel = await registerHotel(t);
    const category = await createCategory(t, hotel, { name: '=HYPERLINK("http://evil.example","Люкс")' });
    const room = await createRoom(t, hotel, category.id, { number: '1.50' });
    const id = await book(hotel, room.id, 0, 1, '5000.00');
    // Checked out: its night is on the books (posted at check-out; while in house it waits for the night audit).
    await bringStayTo(t, hotel, id, 'checked_out');
    const range = `from=${localDay(0)}&to=${localDay(0)}`;
    const csv = await get(hotel, `/reports/revenue?${range}&by=category&format=csv`).expect(200);
    const rows = parse(csv.text, { delimiter: ';', columns: true, bom: true }) as Record<string, string>[];
    expect(rows).toEqual([expect.objectContaining({ name: `'${category.name}`, revenue: '5000.00', nights: '1' })]);

    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await binary(hotel, `/reports/stays?date=${localDay(0)}&format=xlsx`)).body);
    const sheet = workbook.worksheets[0];
    const header = (sheet.getRow(1).values as string[]).slice(1);
    const cell = (key: string) => sheet.getRow(2).getCell(header.indexOf(key) + 1);
    expect(cell('room').value).toBe('1.50');
    expect(cell('check_in').value).toEqual(new Date(`${localDay(0)}T00:00:00Z`));
    expect(cell('price').value).toBe(5000);
    expect(cell('price').numFmt).toBe('0.00');
  });
});

describe('the daily report sent on request', () => {
  it('goes once a day per date and recipient, however often staff ask', async () => {
    const hotel = await registerHotel(t);
    const date = localDay(-1);
    const first = await send(hotel, 'post', '/reports/daily/send', { date }).expect(202);
    const again = await send(hotel, 'post', '/reports/daily/send', { date }).expect(202);
    expect(again.body.workflow_id).toBe(first.body.workflow_id);
    await withTemporal((client) =>
      outboxWorkflowsAtRest(
        t.db,
        client,
        (outbox) => outbox.where('workflow_id', 'like', `daily-report:${hotel.hotelId}:%`),
        {
          what: 'the daily reports sent',
        },
      ),
    );
    const reports = (await messagesTo(hotel.email)).filter((m) => m.subject.includes(`отчёт за ${date}`));
    expect(reports).toHaveLength(1);
  });
});
