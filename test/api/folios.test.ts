import { randomUUID } from 'node:crypto';
import { createTestApp, type TestApp } from '../helpers/app';
import { addStaff, as, registerHotel, type RegisteredHotel } from '../helpers/accounts';
import { localDay } from '../helpers/dates';
import { problem } from '../helpers/problem';
import { createCategory, createRoom } from '../helpers/structure';
import { until } from '../helpers/wait';

let t: TestApp;
let owner: RegisteredHotel;
let other: RegisteredHotel;
beforeAll(async () => {
  t = createTestApp();
  [owner, other] = await Promise.all([registerHotel(t), registerHotel(t)]);
});
afterAll(() => t.close());

const api = (hotel: RegisteredHotel, path: string) => `/api/hotels/${hotel.slug}${path}`;
const folioPath = (hotel: RegisteredHotel, bookingId: string) => api(hotel, `/bookings/${bookingId}/folio`);

interface Line {
  id: string;
  folio_id: string;
  kind: string;
  amount: string;
  business_date: string;
  source: string;
  posted_by: string | null;
  posted_via: string;
  corrects_line_id: string | null;
}
interface Folio {
  id: string;
  payer_kind: string;
  balance: string;
  lines: Line[];
}

const readFolio = async (hotel: RegisteredHotel, bookingId: string, token = hotel.accessToken) =>
  (await t.http.get(folioPath(hotel, bookingId)).set(as(token)).expect(200)).body as {
    balance: string;
    business_date: string;
    closed_through: string | null;
    folios: Folio[];
    moves: { line_id: string; from_folio_id: string; to_folio_id: string; moved_by: string }[];
    settlements: { decision: string; balance: string; decided_by: string }[];
  };

const postLine = (
  hotel: RegisteredHotel,
  bookingId: string,
  body: Record<string, unknown>,
  token = hotel.accessToken,
) =>
  t.http
    .post(`${folioPath(hotel, bookingId)}/lines`)
    .set(as(token))
    .send(body);

const setStatus = (hotel: RegisteredHotel, bookingId: string, status: string) =>
  t.http
    .patch(api(hotel, `/bookings/${bookingId}`))
    .set(as(hotel.accessToken))
    .send({ status });

/** A confirmed stay of `nights` from today at `price`, in its own room. */
async function booking(
  hotel: RegisteredHotel,
  { nights = 3, price = '10000.00', from = 0, guestId = undefined as string | undefined } = {},
) {
  const category = await createCategory(t, hotel);
  const room = await createRoom(t, hotel, category.id);
  const booked = await t.http
    .post(api(hotel, '/bookings'))
    .set(as(hotel.accessToken))
    .send({
      room_id: room.id,
      check_in: localDay(from),
      check_out: localDay(from + nights),
      guest_last_name: 'Счетова',
      guest_first_name: 'Анна',
      guest_id: guestId,
      price,
    })
    .expect(201);
  return booked.body.id as string;
}

const pay = (hotel: RegisteredHotel, bookingId: string, amount: string) =>
  t.http
    .post(api(hotel, `/bookings/${bookingId}/payments`))
    .set(as(hotel.accessToken))
    .send({ amount, method: 'cash' })
    .expect(201);

/** The hotel charges the tourist tax at 2 %. */
const chargeTax = (hotel: RegisteredHotel) =>
  t.http
    .patch(api(hotel, '/tourist-tax/settings'))
    .set(as(hotel.accessToken))
    .send({ enabled: true, rate: 2 })
    .expect(200);

const amounts = (lines: Line[], kind: string) => lines.filter((line) => line.kind === kind).map((l) => l.amount);
const guestFolio = (folio: { folios: Folio[] }) => folio.folios.find((f) => f.payer_kind === 'guest')!;

describe('folio lines', () => {
  // Nights are posted as they pass (the night audit); a check-in posts those before the business date: a late arrival.
  it('post the payments (negative) and, at a late arrival’s check-in, one line per night past', async () => {
    const id = await booking(owner, { nights: 3, price: '10000.00', from: -3 });
    const paid = await pay(owner, id, '4000');
    let folio = await readFolio(owner, id);
    expect(guestFolio(folio).lines).toEqual([
      expect.objectContaining({
        kind: 'payment',
        amount: '-4000.00',
        source: `payment:${paid.body.payment.id}`,
        posted_by: owner.userId,
        posted_via: 'payments',
      }),
    ]);
    expect(folio.balance).toBe('-4000.00');

    await setStatus(owner, id, 'checked_in').expect(200);
    folio = await readFolio(owner, id);
    const nights = guestFolio(folio).lines.filter((line) => line.kind === 'room_night');
    expect(nights.map((line) => [line.business_date, line.amount])).toEqual([
      [localDay(-3), '3333.33'],
      [localDay(-2), '3333.33'],
      [localDay(-1), '3333.34'],
    ]);
    expect(nights.every((line) => line.posted_by === null && line.posted_via === 'check_in')).toBe(true);
    expect(folio.balance).toBe('6000.00');
  });

  it('post the tourist tax beside each night when the hotel charges it', async () => {
    const hotel = await registerHotel(t);
    await chargeTax(hotel);
    const id = await booking(hotel, { nights: 2, price: '20000.00', from: -2 });
    await setStatus(hotel, id, 'checked_in').expect(200);
    const lines = guestFolio(await readFolio(hotel, id)).lines;
    expect(amounts(lines, 'room_night')).toEqual(['10000.00', '10000.00']);
    // 2 % of each night's price (no VAT in it), above the 100-rouble minimum.
    expect(amounts(lines, 'tourist_tax')).toEqual(['200.00', '200.00']);
  });

  it('reconcile with the booking: price plus charges less payments, refunds and deleted payments', async () => {
    const id = await booking(owner, { nights: 2, price: '7000.00', from: -2 });
    await pay(owner, id, '5000');
    const second = await pay(owner, id, '1500.50');
    await pay(owner, id, '-500');
    await t.http
      .delete(api(owner, `/bookings/${id}/payments/${second.body.payment.id}`))
      .set(as(owner.accessToken))
      .expect(200);
    await setStatus(owner, id, 'checked_in').expect(200);
    await postLine(owner, id, { kind: 'service', amount: '300', description: 'Трансфер' }).expect(201);
    await postLine(owner, id, { kind: 'discount', amount: '-100', description: 'Комплимент' }).expect(201);

    const folio = await readFolio(owner, id);
    const lines = guestFolio(folio).lines;
    const removed = lines.find((line) => line.kind === 'correction')!;
    expect(removed).toMatchObject({
      amount: '1500.50',
      source: `payment_removed:${second.body.payment.id}`,
      posted_by: owner.userId,
    });
    expect(lines.find((line) => line.id === removed.corrects_line_id)).toMatchObject({ amount: '-1500.50' });
    expect(amounts(lines, 'refund')).toEqual(['500.00']);

    const stay = (
      await t.http
        .get(api(owner, `/bookings/${id}`))
        .set(as(owner.accessToken))
        .expect(200)
    ).body;
    // The booking's own answer is unchanged: its price less what was paid (5000 − 500).
    expect(stay.paid_amount).toBe('4500.00');
    const cents = (amount: string) => Math.round(Number(amount) * 100);
    expect(cents(folio.balance)).toBe(cents(stay.price) + cents(stay.charges_amount) - cents(stay.paid_amount) + 20000);
    expect(folio.balance).toBe('2700.00');
  });

  it('post a loyalty redemption as a discount: after check-in the balance is the booking’s own', async () => {
    const hotel = await registerHotel(t);
    await t.http.patch(api(hotel, '/loyalty/settings')).set(as(hotel.accessToken)).send({ enabled: true }).expect(200);
    const guest = await t.http
      .post(api(hotel, '/guests'))
      .set(as(hotel.accessToken))
      .send({ last_name: 'Лоялова', first_name: 'Гостья' })
      .expect(201);
    await t.http
      .post(api(hotel, `/guests/${guest.body.id}/loyalty/adjustments`))
      .set(as(hotel.accessToken))
      .send({ points: 500, note: 'Приветственные' })
      .expect(201);
    const id = await booking(hotel, { nights: 2, price: '6000', guestId: guest.body.id, from: -2 });
    await setStatus(hotel, id, 'checked_in').expect(200);
    const redeemed = await t.http
      .post(api(hotel, `/bookings/${id}/loyalty-redemptions`))
      .set(as(hotel.accessToken))
      .send({ points: 200 })
      .expect(201);
    await pay(hotel, id, '1000');

    const lines = guestFolio(await readFolio(hotel, id)).lines;
    expect(lines.find((line) => line.kind === 'discount')).toMatchObject({
      amount: '-200.00',
      source: `charge:loyalty_redemption:${redeemed.body.entry.id}`,
      posted_via: 'loyalty',
    });
    const stay = (
      await t.http
        .get(api(hotel, `/bookings/${id}`))
        .set(as(hotel.accessToken))
        .expect(200)
    ).body;
    expect(stay).toMatchObject({ charges_amount: '-200.00', paid_amount: '1000.00', balance: '4800.00' });
    expect((await readFolio(hotel, id)).balance).toBe(stay.balance);
  });

  it('post room service delivered to the stay at its own VAT, and its refund against it', async () => {
    const hotel = await registerHotel(t);
    const service = (path: string) => api(hotel, `/room-service${path}`);
    await t.http
      .patch(api(hotel, '/payment-settings'))
      .set(as(hotel.accessToken))
      .send({ fiscal_vat: '20', fiscal_vat_room_service: '10' })
      .expect(200);
    await t.http
      .patch(service('/settings'))
      .set(as(hotel.accessToken))
      .send({ enabled: true, delivery_fee: '0', minimum_order: '0' })
      .expect(200);
    const kitchen = await t.http
      .post(service('/menu/categories'))
      .set(as(hotel.accessToken))
      .send({ name: 'Кухня', sort_order: 0 })
      .expect(201);
    const soup = await t.http
      .post(service('/menu/items'))
      .set(as(hotel.accessToken))
      .send({ category_id: kitchen.body.id, name: 'Борщ', price: '350.50' })
      .expect(201);
    const category = await createCategory(t, hotel);
    const room = await createRoom(t, hotel, category.id, { number: `F${randomUUID().slice(0, 5)}` });
    const booked = await t.http
      .post(api(hotel, '/bookings'))
      .set(as(hotel.accessToken))
      .send({
        room_id: room.id,
        check_in: localDay(-1),
        check_out: localDay(1),
        guest_last_name: 'Гость',
        guest_first_name: 'Тест',
        price: 6000,
      })
      .expect(201);
    const id = booked.body.id as string;
    await setStatus(hotel, id, 'checked_in').expect(200);
    const code = (
      await t.http
        .get(service(`/stays/${id}/code`))
        .set(as(hotel.accessToken))
        .expect(200)
    ).body.code;
    const placed = await t.http
      .post(service('/guest/orders'))
      .set({ 'X-Room': encodeURIComponent(room.number), 'X-Stay-Code': code })
      .send({ items: [{ item_id: soup.body.id, quantity: 2 }] })
      .expect(201);
    const orderId = placed.body.order.id as string;
    for (const status of ['accepted', 'preparing', 'delivered'])
      await t.http
        .post(service(`/orders/${orderId}/status`))
        .set(as(hotel.accessToken))
        .send({ status })
        .expect(200);

    let lines = guestFolio(await readFolio(hotel, id)).lines;
    expect(lines.filter((line) => line.kind === 'room_service')).toEqual([
      expect.objectContaining({ amount: '701.00', vat_rate: '10', source: `charge:room_service:${orderId}` }),
    ]);
    expect(lines.find((line) => line.kind === 'room_night')).toMatchObject({ amount: '3000.00', vat_rate: '20' });
    await t.http
      .post(service(`/orders/${orderId}/status`))
      .set(as(hotel.accessToken))
      .send({ status: 'refunded', reason: 'Остыл' })
      .expect(200);
    lines = guestFolio(await readFolio(hotel, id)).lines;
    expect(amounts(lines, 'room_service')).toEqual(['701.00', '-701.00']);
    // At check-out the room nights come to the price: the folio is the booking's balance.
    await setStatus(hotel, id, 'checked_out').expect(200);
    const stay = (
      await t.http
        .get(api(hotel, `/bookings/${id}`))
        .set(as(hotel.accessToken))
        .expect(200)
    ).body;
    expect((await readFolio(hotel, id)).balance).toBe(stay.balance);
  });

  it('post a retried line (same source) once, and a retried check-in posts no night twice', async () => {
    const id = await booking(owner, { nights: 1, price: '5000', from: -1 });
    const body = { kind: 'service', amount: '250.5', description: 'Прачечная', source: `laundry-${randomUUID()}` };
    const first = await postLine(owner, id, body).expect(201);
    const again = await postLine(owner, id, body).expect(200);
    expect(again.body.id).toBe(first.body.id);
    const concurrent = await Promise.all([1, 2, 3].map(() => postLine(owner, id, { ...body, source: 'same-key' })));
    expect(concurrent.map((r) => r.status).sort()).toEqual([200, 200, 201]);
    // A key used on another booking is refused there, not answered with this booking's line.
    const elsewhere = await booking(owner, { nights: 1 });
    const taken = await postLine(owner, elsewhere, body).expect(409);
    expect(taken.body).toMatchObject({ code: 'folio_source_taken' });
    expect(guestFolio(await readFolio(owner, elsewhere)).lines).toEqual([]);

    await setStatus(owner, id, 'checked_in').expect(200);
    await setStatus(owner, id, 'checked_in').expect(200);
    const lines = guestFolio(await readFolio(owner, id)).lines;
    expect(amounts(lines, 'service')).toEqual(['250.50', '250.50']);
    expect(amounts(lines, 'room_night')).toEqual(['5000.00']);
  });

  it('refuse bad manual lines with 400 and nothing posted; only the money desk posts, another hotel gets 404', async () => {
    const id = await booking(owner, { nights: 1 });
    const bad = [
      { kind: 'payment', amount: '10', description: 'x' },
      { kind: 'service', amount: '-10', description: 'x' },
      { kind: 'discount', amount: '10', description: 'x' },
      { kind: 'correction', amount: '0', description: 'x' },
      { kind: 'service', amount: '1000000.01', description: 'x' },
      { kind: 'service', amount: '10', description: '' },
      { kind: 'service', amount: '10', description: 'x'.repeat(501) },
      { kind: 'service', amount: '10', description: 'x', vat_rate: '18' },
      { kind: 'service', amount: '10', description: 'x', folio_id: randomUUID() },
      { kind: 'correction', amount: '10', description: 'x', corrects_line_id: randomUUID() },
      { kind: 'service', amount: '10', description: 'x', source: 's'.repeat(300) },
    ];
    for (const body of bad) await postLine(owner, id, body).expect((r) => expect([400, 404]).toContain(r.status));
    expect(guestFolio(await readFolio(owner, id)).lines).toEqual([]);

    const housekeeper = await addStaff(t, owner, 'housekeeper');
    await postLine(owner, id, { kind: 'service', amount: '10', description: 'x' }, housekeeper.accessToken).expect(403);
    await t.http.get(folioPath(owner, id)).set(as(housekeeper.accessToken)).expect(403);
    const accountant = await addStaff(t, owner, 'accountant');
    await postLine(owner, id, { kind: 'service', amount: '10', description: 'x' }, accountant.accessToken).expect(201);
    await t.http.get(folioPath(other, id)).set(as(other.accessToken)).expect(404);
    await postLine(other, id, { kind: 'service', amount: '10', description: 'x' }).expect(404);
  });
});

describe('room nights as they pass', () => {
  const patch = (hotel: RegisteredHotel, bookingId: string, body: Record<string, unknown>) =>
    t.http
      .patch(api(hotel, `/bookings/${bookingId}`))
      .set(as(hotel.accessToken))
      .send(body)
      .expect(200);
  const nightLines = (lines: Line[]) =>
    lines
      .filter((line) => line.source.startsWith('room_night:'))
      .map((line) => [line.kind, line.business_date, line.amount, line.posted_via]);
  const total = (lines: Line[], prefix: string) =>
    (
      lines
        .filter((line) => line.source.startsWith(prefix))
        .reduce((sum, line) => sum + Math.round(Number(line.amount) * 100), 0) / 100
    ).toFixed(2);

  it('post none of tonight’s or later nights at check-in; extended and repriced, an early check-out brings the nights stayed to the price and posts no night after it', async () => {
    const hotel = await registerHotel(t);
    const id = await booking(hotel, { nights: 2, price: '6000', from: -1 });
    await setStatus(hotel, id, 'checked_in').expect(200);
    expect(nightLines(guestFolio(await readFolio(hotel, id)).lines)).toEqual([
      ['room_night', localDay(-1), '3000.00', 'check_in'],
    ]);
    await patch(hotel, id, { check_out: localDay(2), price: '9900' });
    await setStatus(hotel, id, 'checked_out').expect(200);

    const lines = guestFolio(await readFolio(hotel, id)).lines;
    // The guest owes the contract price; leaving early, its remainder lands on the last night posted.
    expect(nightLines(lines)).toEqual([
      ['room_night', localDay(-1), '3000.00', 'check_in'],
      ['room_night', localDay(-1), '6900.00', 'check_out'],
    ]);
    expect(total(lines, 'room_night:')).toBe('9900.00');
    expect(lines.filter((line) => line.business_date >= localDay(0))).toEqual([]);
  });

  it('post at check-out the nights stayed not posted yet, and a price cut below what is posted as a correction with its tax', async () => {
    const hotel = await registerHotel(t);
    await chargeTax(hotel);
    const late = await booking(hotel, { nights: 2, price: '16000', from: -2 });
    await setStatus(hotel, late, 'checked_in').expect(200);
    await patch(hotel, late, { price: '14000' });
    await setStatus(hotel, late, 'checked_out').expect(200);
    const cut = guestFolio(await readFolio(hotel, late)).lines;
    expect(total(cut, 'room_night:')).toBe('14000.00');
    expect(cut.find((line) => line.source === `room_night:${late}:check_out`)).toMatchObject({
      kind: 'correction',
      amount: '-2000.00',
      business_date: localDay(-1),
    });
    // Each night's tax is 2 % of its amount: 160, then 120 for the night cut to 6000 (a correction of −40).
    expect(total(cut, 'tourist_tax:')).toBe('280.00');
    expect(cut.find((line) => line.source === `tourist_tax:${late}:check_out`)).toMatchObject({ amount: '-40.00' });

    // A stay that arrived on time and leaves on time without an audit: its nights posted as it leaves.
    const stayed = await booking(hotel, { nights: 2, price: '5000', from: -2 });
    await t
      .db('bookings')
      .where({ id: stayed })
      .update({ check_in: localDay(-2) });
    await setStatus(hotel, stayed, 'checked_in').expect(200);
    await t.db('folio_lines').where({ hotel_id: hotel.hotelId }).whereLike('source', `%:${stayed}:%`).delete();
    await setStatus(hotel, stayed, 'checked_out').expect(200);
    expect(nightLines(guestFolio(await readFolio(hotel, stayed)).lines)).toEqual([
      ['room_night', localDay(-2), '2500.00', 'check_out'],
      ['room_night', localDay(-1), '2500.00', 'check_out'],
    ]);
  });
});

describe('payers', () => {
  it('split the bill to a company folio and move a line there, recorded', async () => {
    const id = await booking(owner, { nights: 2, price: '8000', from: -2 });
    await setStatus(owner, id, 'checked_in').expect(200);
    const company = await t.http
      .post(`${folioPath(owner, id)}/companies`)
      .set(as(owner.accessToken))
      .send({ payer_name: 'ООО «Ромашка»', payer_inn: '7707083893' })
      .expect(201);
    await t.http
      .post(`${folioPath(owner, id)}/companies`)
      .set(as(owner.accessToken))
      .send({ payer_name: 'ООО', payer_inn: '123' })
      .expect(400);
    const night = guestFolio(await readFolio(owner, id)).lines[0];
    const moved = await t.http
      .post(`${folioPath(owner, id)}/lines/${night.id}/move`)
      .set(as(owner.accessToken))
      .send({ folio_id: company.body.id })
      .expect(201);
    expect(moved.body).toMatchObject({ from_folio_id: night.folio_id, to_folio_id: company.body.id });
    await t.http
      .post(`${folioPath(owner, id)}/lines/${night.id}/move`)
      .set(as(owner.accessToken))
      .send({ folio_id: company.body.id })
      .expect(409);

    const folio = await readFolio(owner, id);
    expect(folio.folios.map((f) => [f.payer_kind, f.balance])).toEqual([
      ['guest', '4000.00'],
      ['company', '4000.00'],
    ]);
    expect(folio.balance).toBe('8000.00');
    expect(folio.moves).toEqual([
      expect.objectContaining({ line_id: night.id, to_folio_id: company.body.id, moved_by: owner.userId }),
    ]);

    // Another booking's folio is not a destination.
    const elsewhere = await booking(owner, { nights: 1 });
    const foreign = guestFolio(await readFolio(owner, elsewhere));
    await t.http
      .post(`${folioPath(owner, id)}/lines/${night.id}/move`)
      .set(as(owner.accessToken))
      .send({ folio_id: foreign.id })
      .expect(400);
  });
  it('move a line to the folio of another stay of the same group block, not of a stay outside it', async () => {
    const hotel = await registerHotel(t);
    const category = await createCategory(t, hotel, { base_price: 4000 });
    for (let i = 0; i < 3; i++) await createRoom(t, hotel, category.id);
    const block = await t.http
      .post(api(hotel, '/blocks'))
      .set(as(hotel.accessToken))
      .send({
        name: 'Конференция',
        status: 'definite',
        price_per_night: '3000',
        allotment: [{ category_id: category.id, from: localDay(0), to: localDay(0), rooms: 2 }],
      })
      .expect(201);
    const stay = (n: number) => ({
      category_id: category.id,
      check_in: localDay(0),
      check_out: localDay(1),
      guest_last_name: 'Группова',
      guest_first_name: `Гостья ${n}`,
    });
    const picked = await t.http
      .post(api(hotel, `/blocks/${block.body.id}/pickup`))
      .set(as(hotel.accessToken))
      .send({ guests: [stay(1), stay(2)] })
      .expect(201);
    const [first, second] = (picked.body.bookings as { id: string }[]).map((booking) => booking.id);
    const outsider = await booking(hotel, { nights: 1, price: '3000', from: 0 });
    await postLine(hotel, first, { kind: 'service', amount: '500', description: 'Банкет' }).expect(201);
    const line = guestFolio(await readFolio(hotel, first)).lines[0];
    const outside = guestFolio(await readFolio(hotel, outsider));
    const move = (folioId: string) =>
      t.http
        .post(`${folioPath(hotel, first)}/lines/${line.id}/move`)
        .set(as(hotel.accessToken))
        .send({ folio_id: folioId });
    await move(outside.id).expect(400);

    const target = guestFolio(await readFolio(hotel, second));
    expect((await move(target.id).expect(201)).body).toMatchObject({
      from_folio_id: line.folio_id,
      to_folio_id: target.id,
    });
    expect((await readFolio(hotel, first)).balance).toBe('0.00');
    expect(guestFolio(await readFolio(hotel, second)).lines).toEqual([expect.objectContaining({ id: line.id })]);
  });
});

describe('check-out and closed days', () => {
  it('where the hotel asks, a check-out with a balance waits for the desk’s recorded decision', async () => {
    const hotel = await registerHotel(t);
    const id = await booking(hotel, { nights: 1, price: '3000', from: -1 });
    await setStatus(hotel, id, 'checked_in').expect(200);
    // Off by default: the stay checks out with its balance as before.
    const early = await booking(hotel, { nights: 1, price: '3000', from: -1 });
    await setStatus(hotel, early, 'checked_in').expect(200);
    await setStatus(hotel, early, 'checked_out').expect(200);

    await t.http
      .patch(api(hotel, '/folio-settings'))
      .set(as(hotel.accessToken))
      .send({ checkout_needs_settlement: true })
      .expect(200);
    const refused = await setStatus(hotel, id, 'checked_out').expect(409);
    expect(refused.body).toEqual(
      problem(
        409,
        'folio_unsettled',
        'Остаток по счёту гостя 3000.00 ₽: примите его, запишите решение (POST …/folio/settlement) или выселите ' +
          'после расчёта',
      ),
    );
    const decided = await t.http
      .post(`${folioPath(hotel, id)}/settlement`)
      .set(as(hotel.accessToken))
      .send({ decision: 'leave_open', note: 'Оплатит по счёту' })
      .expect(201);
    expect(decided.body).toMatchObject({ decision: 'leave_open', balance: '3000.00', decided_by: hotel.userId });
    // A decision holds for the balance it was taken for: a change of the balance asks again.
    await postLine(hotel, id, { kind: 'service', amount: '10', description: 'Вода' }).expect(201);
    await setStatus(hotel, id, 'checked_out').expect(409);
    await pay(hotel, id, '3010');
    await setStatus(hotel, id, 'checked_out').expect(200);
    expect((await readFolio(hotel, id)).settlements).toHaveLength(1);
  });

  it('lets the auto check-out sweep check out an unsettled stay, recording the balance left open by no one', async () => {
    const hotel = await registerHotel(t);
    await t.http
      .patch(api(hotel, '/settings'))
      .set(as(hotel.accessToken))
      .send({ auto_checkout: true, auto_checkout_hours: 0 })
      .expect(200);
    await t.http
      .patch(api(hotel, '/folio-settings'))
      .set(as(hotel.accessToken))
      .send({ checkout_needs_settlement: true })
      .expect(200);
    const id = await booking(hotel, { nights: 2, price: '4000', from: -3 });
    await setStatus(hotel, id, 'checked_in').expect(200);

    const due = (await t.services.bookings.lifecycle.sweeps.overdueStays()).filter((stay) => stay.bookingId === id);
    expect(due).toHaveLength(1);
    expect(await t.services.bookings.lifecycle.sweeps.autoCheckOut(due[0])).toBe('done');
    const stay = (
      await t.http
        .get(api(hotel, `/bookings/${id}`))
        .set(as(hotel.accessToken))
        .expect(200)
    ).body;
    expect(stay.status).toBe('checked_out');
    expect((await readFolio(hotel, id)).settlements).toEqual([
      expect.objectContaining({ decision: 'leave_open', balance: '4000.00', decided_by: null }),
    ]);
  });

  it('never post a line into a day being closed: a posting waits for the close, then goes to the next open day', async () => {
    const hotel = await registerHotel(t);
    const id = await booking(hotel, { nights: 1, from: -1 });
    const closing = await t.db.transaction();
    try {
      await closing('folio_settings').where({ hotel_id: hotel.hotelId }).forUpdate();
      const posting = postLine(hotel, id, { kind: 'service', amount: '100', description: 'Такси' }).then((r) => r);
      const waiting = async () => {
        const { rows } = await t.db.raw(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query ILIKE '%folio_settings%'",
        );
        return rows[0].n > 0;
      };
      // The posting waits for the close (or, unguarded, is written before it).
      await Promise.race([posting, until(waiting, { what: 'the posting to wait for the close', timeoutMs: 20_000 })]);
      await closing('folio_settings')
        .where({ hotel_id: hotel.hotelId })
        .update({ closed_through: localDay(0) });
      await closing.commit();
      expect((await posting).status).toBe(201);
    } finally {
      if (!closing.isCompleted()) await closing.rollback();
    }
    const line = guestFolio(await readFolio(hotel, id)).lines.find((l) => l.kind === 'service')!;
    expect(line.business_date).toBe(localDay(1));
  });

  it('never change a closed day’s lines: postings go to the next open day, corrections point to the old line', async () => {
    const hotel = await registerHotel(t);
    const id = await booking(hotel, { nights: 2, price: '6000', from: -2 });
    await setStatus(hotel, id, 'checked_in').expect(200);
    const close = (date: string, token = hotel.accessToken) =>
      t.http.post(api(hotel, '/folio-settings/close-day')).set(as(token)).send({ date });
    const desk = await addStaff(t, hotel, 'receptionist');
    await close(localDay(-1), desk.accessToken).expect(403);
    await close(localDay(5)).expect(400);
    expect((await close(localDay(-1)).expect(200)).body).toMatchObject({ closed_through: localDay(-1) });
    await close(localDay(-2)).expect(409);

    const before = guestFolio(await readFolio(hotel, id));
    const closedNight = before.lines.find((line) => line.business_date === localDay(-1))!;
    const company = await t.http
      .post(`${folioPath(hotel, id)}/companies`)
      .set(as(hotel.accessToken))
      .send({ payer_name: 'ИП Иванов', payer_inn: '500100732259' })
      .expect(201);
    await t.http
      .post(`${folioPath(hotel, id)}/lines/${closedNight.id}/move`)
      .set(as(hotel.accessToken))
      .send({ folio_id: company.body.id })
      .expect(409);

    const correction = await postLine(hotel, id, {
      kind: 'correction',
      amount: '-500',
      description: 'Скидка за шум',
      corrects_line_id: closedNight.id,
    }).expect(201);
    expect(correction.body).toMatchObject({ business_date: localDay(0), corrects_line_id: closedNight.id });
    await pay(hotel, id, '100');
    const folio = await readFolio(hotel, id);
    expect(folio).toMatchObject({ closed_through: localDay(-1), business_date: localDay(0), balance: '5400.00' });
    expect(guestFolio(folio).lines.find((line) => line.id === closedNight.id)).toEqual(closedNight);
    expect(guestFolio(folio).lines.filter((line) => line.business_date <= localDay(-1))).toHaveLength(2);
  });
});
