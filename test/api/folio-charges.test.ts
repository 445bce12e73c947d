import { randomUUID } from 'node:crypto';
import { createTestApp, type TestApp } from '../helpers/app';
import { as, registerHotel, type RegisteredHotel } from '../helpers/accounts';
import { localDay } from '../helpers/dates';
import { createCategory, createRoom } from '../helpers/structure';

/** Minibar consumption and rentals charged to a room, as the folio API shows them (issue 27, section 1). */

let t: TestApp;
let owner: RegisteredHotel;
let other: RegisteredHotel;
beforeAll(async () => {
  t = createTestApp();
  [owner, other] = await Promise.all([registerHotel(t), registerHotel(t)]);
  // Lodging at 0 % (a hotel's own rate), what it sells besides at 22 %: the charges take the second.
  await t.http
    .patch(api(owner, '/payment-settings'))
    .set(as(owner.accessToken))
    .send({ fiscal_taxation: 'osn', fiscal_vat: '0', fiscal_vat_room_service: '22' })
    .expect(200);
});
afterAll(() => t.close());

const api = (hotel: RegisteredHotel, path: string) => `/api/hotels/${hotel.slug}${path}`;

interface Line {
  id: string;
  folio_id: string;
  kind: string;
  amount: string;
  vat_rate: string;
  business_date: string;
  description: string;
  source: string;
  posted_by: string | null;
  posted_via: string;
  corrects_line_id: string | null;
}

async function folioOf(hotel: RegisteredHotel, bookingId: string) {
  const body = (
    await t.http
      .get(api(hotel, `/bookings/${bookingId}/folio`))
      .set(as(hotel.accessToken))
      .expect(200)
  ).body as { balance: string; business_date: string; folios: { lines: Line[] }[] };
  return { ...body, lines: body.folios.flatMap((folio) => folio.lines) };
}

const chargeLines = (lines: Line[], prefix: string) => lines.filter((line) => line.source.startsWith(prefix));

/** A stay of two nights from today, checked in, in its own room. */
async function stay(hotel: RegisteredHotel) {
  const category = await createCategory(t, hotel);
  const room = await createRoom(t, hotel, category.id);
  const booked = await t.http
    .post(api(hotel, '/bookings'))
    .set(as(hotel.accessToken))
    .send({
      room_id: room.id,
      check_in: localDay(0),
      check_out: localDay(2),
      guest_last_name: 'Барова',
      guest_first_name: 'Мария',
      price: '8000.00',
    })
    .expect(201);
  const id = booked.body.id as string;
  await t.http
    .patch(api(hotel, `/bookings/${id}`))
    .set(as(hotel.accessToken))
    .send({ status: 'checked_in' })
    .expect(200);
  return { id, roomId: room.id };
}

describe('minibar consumption on the folio', () => {
  async function item(price: number) {
    const created = await t.http
      .post(api(owner, '/minibar-items'))
      .set(as(owner.accessToken))
      .send({ name: `Сок ${randomUUID().slice(0, 8)}`, category: 'Напитки', price })
      .expect(201);
    return created.body as { id: string; name: string };
  }

  /** The turnover task the stay's check-out makes (it carries the booking). */
  async function checkedOut(booking: { id: string; roomId: string }) {
    await t.http
      .patch(api(owner, `/bookings/${booking.id}`))
      .set(as(owner.accessToken))
      .send({ status: 'checked_out' })
      .expect(200);
    const tasks = await t.http
      .get(api(owner, `/housekeeping?room_id=${booking.roomId}`))
      .set(as(owner.accessToken))
      .expect(200);
    const task = (tasks.body as { id: string; booking_id: string | null }[]).find(
      (row) => row.booking_id === booking.id,
    );
    return task!.id;
  }

  const check = (hotel: RegisteredHotel, taskId: string, items: { item_id: string; quantity: number }[]) =>
    t.http
      .put(api(hotel, `/housekeeping/${taskId}/minibar`))
      .set(as(hotel.accessToken))
      .send({ items });

  it('posts a minibar line once per check, at the VAT of what the hotel sells besides lodging', async () => {
    const booking = await stay(owner);
    const taskId = await checkedOut(booking);
    // Taken after the check-out, which posts the stay's room nights: the balance moves by the minibar lines alone.
    const before = await folioOf(owner, booking.id);
    const juice = await item(150);
    const water = await item(80.5);
    const items = [
      { item_id: juice.id, quantity: 2 },
      { item_id: water.id, quantity: 1 },
    ];
    await check(owner, taskId, items).expect(200);
    await Promise.all([check(owner, taskId, items), check(owner, taskId, items)]);
    await check(owner, taskId, items).expect(200);

    const folio = await folioOf(owner, booking.id);
    const lines = chargeLines(folio.lines, `minibar:${taskId}:`);
    expect(lines).toHaveLength(2);
    expect(lines.find((line) => line.source === `minibar:${taskId}:${juice.id}:${booking.id}:0`)).toMatchObject({
      kind: 'minibar',
      amount: '300.00',
      vat_rate: '22',
      business_date: folio.business_date,
      description: `Мини-бар: ${juice.name} × 2`,
      posted_by: owner.userId,
      posted_via: 'minibar',
      corrects_line_id: null,
    });
    expect(lines.find((line) => line.description.includes(water.name))).toMatchObject({ amount: '80.50' });
    expect(Number(folio.balance) - Number(before.balance)).toBeCloseTo(380.5, 2);
  });

  it('a count corrected or dropped is a correction line pointing to the first, never a change of it', async () => {
    const booking = await stay(owner);
    const taskId = await checkedOut(booking);
    const juice = await item(150);
    await check(owner, taskId, [{ item_id: juice.id, quantity: 3 }]).expect(200);
    const [first] = chargeLines((await folioOf(owner, booking.id)).lines, `minibar:${taskId}:`);
    expect(first).toMatchObject({ kind: 'minibar', amount: '450.00' });

    // The day closes: its line stays as it was, the correction goes on the next open day.
    const today = (await folioOf(owner, booking.id)).business_date;
    await t.http
      .post(api(owner, '/folio-settings/close-day'))
      .set(as(owner.accessToken))
      .send({ date: today })
      .expect(200);
    await check(owner, taskId, [{ item_id: juice.id, quantity: 1 }]).expect(200);
    await check(owner, taskId, [{ item_id: juice.id, quantity: 1 }]).expect(200);
    await check(owner, taskId, []).expect(200);

    const lines = chargeLines((await folioOf(owner, booking.id)).lines, `minibar:${taskId}:`);
    expect(lines.map((line) => [line.kind, line.amount, line.corrects_line_id])).toEqual([
      ['minibar', '450.00', null],
      ['correction', '-300.00', first.id],
      ['correction', '-150.00', first.id],
    ]);
    expect(lines[0]).toEqual(first);
    expect(lines[1].business_date > today).toBe(true);
    expect(lines[1]).toMatchObject({ vat_rate: '22', description: `Исправление: Мини-бар: ${juice.name} × 1` });
  });

  it("a stayover task's check (no booking on the task) goes to the stay in house in the room", async () => {
    const booking = await stay(owner);
    const task = await t.http
      .post(api(owner, '/housekeeping'))
      .set(as(owner.accessToken))
      .send({ room_id: booking.roomId, category: 'housekeeping', requires_minibar_check: true })
      .expect(201);
    expect(task.body.booking_id).toBeNull();
    const juice = await item(150);
    await check(owner, task.body.id, [{ item_id: juice.id, quantity: 2 }]).expect(200);
    await check(owner, task.body.id, [{ item_id: juice.id, quantity: 1 }]).expect(200);
    const lines = chargeLines((await folioOf(owner, booking.id)).lines, `minibar:${task.body.id}:`);
    expect(lines.map((line) => [line.kind, line.amount])).toEqual([
      ['minibar', '300.00'],
      ['correction', '-150.00'],
    ]);
  });

  it("another hotel's staff reach neither the task nor the folio", async () => {
    const booking = await stay(owner);
    const taskId = await checkedOut(booking);
    const juice = await item(150);
    await check(other, taskId, [{ item_id: juice.id, quantity: 5 }]).expect(404);
    await t.http
      .get(api(other, `/bookings/${booking.id}/folio`))
      .set(as(other.accessToken))
      .expect(404);
    expect(chargeLines((await folioOf(owner, booking.id)).lines, 'minibar:')).toEqual([]);
  });
});

describe('rentals charged to a room on the folio', () => {
  const moscow = (day: string, hour: number) => `${day}T${String(hour).padStart(2, '0')}:00:00+03:00`;

  async function court(hotel = owner) {
    const created = await t.http
      .post(api(hotel, '/rental-objects'))
      .set(as(hotel.accessToken))
      .send({ name: `Корт ${randomUUID().slice(0, 8)}`, price_per_hour: 1500, price_per_day: 8000, is_active: true })
      .expect(201);
    return created.body.id as string;
  }

  const book = (hotel: RegisteredHotel, body: Record<string, unknown>) =>
    t.http
      .post(api(hotel, '/rental-bookings'))
      .set(as(hotel.accessToken))
      .send({ guest_name: 'Барова Мария', guest_phone: '+7 999 111-22-33', kind: 'hourly', ...body });

  const patch = (hotel: RegisteredHotel, id: string, body: Record<string, unknown>) =>
    t.http
      .patch(api(hotel, `/rental-bookings/${id}`))
      .set(as(hotel.accessToken))
      .send(body);

  /** A court rented tomorrow from 10 to 11 and charged to the stay: the rental booking's id. */
  const rented = async (bookingId: string) =>
    (
      await book(owner, {
        rental_object_id: await court(),
        booking_id: bookingId,
        start_at: moscow(localDay(1), 10),
        end_at: moscow(localDay(1), 11),
      }).expect(201)
    ).body.id as string;

  it('a rental booked to the stay is a rental line; a change and the cancellation are corrections', async () => {
    const booking = await stay(owner);
    const before = await folioOf(owner, booking.id);
    const rental = await book(owner, {
      rental_object_id: await court(),
      booking_id: booking.id,
      start_at: moscow(localDay(1), 10),
      end_at: moscow(localDay(1), 12),
    }).expect(201);
    const id = rental.body.id as string;
    let lines = chargeLines((await folioOf(owner, booking.id)).lines, `rental:${id}:`);
    expect(lines).toEqual([
      expect.objectContaining({
        kind: 'rental',
        amount: '3000.00',
        vat_rate: '22',
        source: `rental:${id}:${booking.id}:0`,
        posted_by: owner.userId,
        posted_via: 'rentals',
        corrects_line_id: null,
      }),
    ]);
    expect(lines[0].description).toMatch(/^Аренда: Корт /);

    await patch(owner, id, { comment: 'ракетки' }).expect(200);
    await patch(owner, id, { end_at: moscow(localDay(1), 13) }).expect(200);
    await patch(owner, id, { status: 'cancelled' }).expect(200);
    lines = chargeLines((await folioOf(owner, booking.id)).lines, `rental:${id}:`);
    expect(lines.map((line) => [line.kind, line.amount, line.corrects_line_id])).toEqual([
      ['rental', '3000.00', null],
      ['correction', '1500.00', lines[0].id],
      ['correction', '-4500.00', lines[0].id],
    ]);
    expect((await folioOf(owner, booking.id)).balance).toBe(before.balance);
  });

  it('a rental not charged to a room posts nothing; moved to another stay, it follows', async () => {
    const [first, second] = [await stay(owner), await stay(owner)];
    const rental = await book(owner, {
      rental_object_id: await court(),
      kind: 'daily',
      date_from: localDay(1),
      date_to: localDay(1),
    }).expect(201);
    const id = rental.body.id as string;
    await patch(owner, id, { booking_id: first.id }).expect(200);
    await patch(owner, id, { booking_id: second.id }).expect(200);
    expect(chargeLines((await folioOf(owner, first.id)).lines, `rental:${id}:`).map((l) => l.amount)).toEqual([
      '8000.00',
      '-8000.00',
    ]);
    expect(chargeLines((await folioOf(owner, second.id)).lines, `rental:${id}:`)).toEqual([
      expect.objectContaining({ kind: 'rental', amount: '8000.00' }),
    ]);
  });

  it('a stay checked out or cancelled takes no new rental (422); a cancellation still goes through', async () => {
    const booking = await stay(owner);
    const id = await rented(booking.id);
    await t.http
      .patch(api(owner, `/bookings/${booking.id}`))
      .set(as(owner.accessToken))
      .send({ status: 'checked_out' })
      .expect(200);
    const before = await folioOf(owner, booking.id);
    const refused = await book(owner, {
      rental_object_id: await court(),
      booking_id: booking.id,
      start_at: moscow(localDay(1), 14),
      end_at: moscow(localDay(1), 15),
    }).expect(422);
    expect(refused.body.detail).toMatch(/выехала или отменена/);
    await patch(owner, id, { end_at: moscow(localDay(1), 12) }).expect(422);
    expect((await folioOf(owner, booking.id)).lines).toHaveLength(before.lines.length);
    await patch(owner, id, { status: 'cancelled' }).expect(200);
    const lines = chargeLines((await folioOf(owner, booking.id)).lines, `rental:${id}:`);
    expect(lines.map((line) => line.amount)).toEqual(['1500.00', '-1500.00']);
  });

  it('a rental from before rentals were charged is charged by a change of its price or stay, not by a comment', async () => {
    const booking = await stay(owner);
    const id = await rented(booking.id);
    // As a rental booked before this change left it: charged to the room, nothing on the folio.
    await t.db('folio_lines').where({ hotel_id: owner.hotelId }).whereLike('source', `rental:${id}:%`).delete();
    await patch(owner, id, { comment: 'ракетки' }).expect(200);
    expect(chargeLines((await folioOf(owner, booking.id)).lines, `rental:${id}:`)).toEqual([]);
    await patch(owner, id, { end_at: moscow(localDay(1), 12) }).expect(200);
    expect(chargeLines((await folioOf(owner, booking.id)).lines, `rental:${id}:`).map((l) => l.amount)).toEqual([
      '3000.00',
    ]);
  });

  it("the desk's own correction of a rental line is counted when the rental changes", async () => {
    const booking = await stay(owner);
    const id = await rented(booking.id);
    const [line] = chargeLines((await folioOf(owner, booking.id)).lines, `rental:${id}:`);
    await t.http
      .post(api(owner, `/bookings/${booking.id}/folio/lines`))
      .set(as(owner.accessToken))
      .send({ kind: 'correction', amount: '-1500.00', description: 'Корт за счёт отеля', corrects_line_id: line.id })
      .expect(201);
    await patch(owner, id, { status: 'cancelled' }).expect(200);
    const after = await folioOf(owner, booking.id);
    const charged = after.lines.filter((l) => l.id === line.id || l.corrects_line_id === line.id);
    expect(charged.reduce((sum, l) => sum + Number(l.amount), 0)).toBe(0);
  });

  it("another hotel can charge nothing to this hotel's stay, nor change its rentals", async () => {
    const booking = await stay(owner);
    const before = await folioOf(owner, booking.id);
    await book(other, {
      rental_object_id: await court(other),
      booking_id: booking.id,
      start_at: moscow(localDay(1), 10),
      end_at: moscow(localDay(1), 11),
    }).expect(400);
    const mine = await book(owner, {
      rental_object_id: await court(),
      booking_id: booking.id,
      start_at: moscow(localDay(1), 10),
      end_at: moscow(localDay(1), 11),
    }).expect(201);
    await patch(other, mine.body.id, { status: 'cancelled' }).expect(404);
    const after = await folioOf(owner, booking.id);
    expect(after.lines).toHaveLength(before.lines.length + 1);
  });
});
