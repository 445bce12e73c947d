import { randomUUID } from 'node:crypto';
import { up as normaliseStoredPhones } from '../../migrations/20261127000084_phone_normal_form';
import type { ReferenceAgent } from '../fakes/agent';
import { fakeYooKassaControl } from '../fakes/yookassa';
import { as, registerHotel, type RegisteredHotel } from '../helpers/accounts';
import { localDay } from '../helpers/dates';
import { blacklistedGuest } from '../helpers/guests';
import { deskWithAgent } from '../helpers/desks';
import { reportGate } from '../helpers/gates';
import { startTestServer, type TestServer } from '../helpers/realtime';
import { readStackInfo } from '../helpers/stack-env';
import { createCategory, createRoom } from '../helpers/structure';
import { until } from '../helpers/wait';

/**
 * Gate: phone forms in matching and in provider payloads. One number typed the ways people type it is one guest
 * everywhere the service matches (the blacklist on staff and widget bookings, guest de-duplication, the widget's
 * look-up), and reaches every provider in the form it documents (YooKassa's receipt in online payments, charged
 * deposits and paid widget bookings, whose strict fake refuses any other form; the ATOL task sent to the desk's
 * agent). A text that is no phone number is kept as typed, never matched, and never fails a payment.
 */

let t: TestServer;
const fake = fakeYooKassaControl(readStackInfo().env.YOOKASSA_FAKE_URL);
const agents: ReferenceAgent[] = [];
let shopSequence = 0;
/** Cases run and passed, per kind, for the gate's line. */
const passed = { matching: 0, payloads: 0 };

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  reportGate(
    'phones',
    `${TYPED.length} typed forms of one number and 1 text that is no number: ${passed.matching} matching cases ` +
      `(blacklist on staff and widget bookings, guest de-duplication, widget look-up), ${passed.payloads} provider ` +
      'payloads (online payment, yookassa_charge deposit, paid widget booking, ATOL task at the agent) passed',
  );
  await Promise.all(agents.map((agent) => agent.stop()));
  await t.close();
});

const api = (hotel: RegisteredHotel, path: string) => `/api/hotels/${hotel.slug}${path}`;
const widget = (hotel: RegisteredHotel, path: string) => `/api/widget/${hotel.slug}${path}`;

/** +7 900 555-00-11 typed another way each time, beside a form of it whose digits differ (as staff stored it). */
const NUMBER = '+79005550011';
const TYPED: [typed: string, stored: string][] = [
  ['+7 900 555-00-11', '8 (900) 555-00-11'],
  ['8 (900) 555-00-11', '+7 (900) 555-00-11'],
  ['900 555-00-11', '+7 (900) 555-00-11'],
  ['+7(900)5550011', '8 900 555 00 11'],
  ['+7 900 555.00.11', '8 (900) 555-00-11'],
];
/** Digits enough for the interface's phone rule, but no phone number: the same digits, typed twice. */
const UNPARSEABLE: [typed: string, stored: string] = ['12345', '12-345'];

async function hotelWithRoom() {
  const hotel = await registerHotel(t);
  const category = await createCategory(t, hotel, { base_price: 3000 });
  const room = await createRoom(t, hotel, category.id);
  return { hotel, category, room };
}

const blacklisted = (hotel: RegisteredHotel, phone: string) => blacklistedGuest(t, hotel, phone);

async function staffBooking(hotel: RegisteredHotel, roomId: string, body: Record<string, unknown>) {
  const { body: booking } = await t.http
    .post(api(hotel, '/bookings'))
    .set(as(hotel.accessToken))
    .send({ room_id: roomId, check_in: localDay(3), check_out: localDay(4), guest_first_name: 'Иван', ...body })
    .expect(201);
  const { body: detail } = await t.http
    .get(api(hotel, `/bookings/${booking.id}`))
    .set(as(hotel.accessToken))
    .expect(200);
  return { ...booking, guestIds: (detail.guests as { guest_id: string }[]).map((guest) => guest.guest_id) };
}

async function notificationsOf(hotel: RegisteredHotel, type: string) {
  const { body } = await t.http.get(api(hotel, '/notifications')).set(as(hotel.accessToken)).expect(200);
  return (body.items as { type: string }[]).filter((n) => n.type === type);
}

const widgetBooking = (categoryId: string, phone: string, extra: Record<string, unknown> = {}) => ({
  category_id: categoryId,
  check_in: localDay(10),
  check_out: localDay(11),
  guests_count: 1,
  guest_last_name: 'Нарушитель',
  guest_first_name: 'Иван',
  guest_phone: phone,
  ...extra,
});

describe('matching: one number however it is typed; no phone number never matches', () => {
  it.each(TYPED)('a staff booking typed %s flags the guest blacklisted as %s', async (typed, stored) => {
    const { hotel, room } = await hotelWithRoom();
    const guestId = await blacklisted(hotel, stored);
    const booking = await staffBooking(hotel, room.id, { guest_last_name: 'Нарушитель', guest_phone: typed });
    expect(booking).toMatchObject({ guest_phone: typed, guest_blacklisted: true, warnings: ['Гость в чёрном списке'] });
    expect(booking.guestIds).toEqual([guestId]);
    await until(async () => (await notificationsOf(hotel, 'booking_blacklisted_guest')).length === 1, {
      what: 'the booking_blacklisted_guest notification',
      intervalMs: 200,
    });
    passed.matching += 1;
  });

  it('a staff booking with no phone number is not matched to a profile with the same text', async () => {
    const { hotel, room } = await hotelWithRoom();
    const guestId = await blacklisted(hotel, UNPARSEABLE[1]);
    const booking = await staffBooking(hotel, room.id, { guest_last_name: 'Нарушитель', guest_phone: UNPARSEABLE[0] });
    expect(booking).toMatchObject({ guest_phone: UNPARSEABLE[0], guest_blacklisted: false, warnings: [] });
    expect(booking.guestIds).not.toContain(guestId);
    passed.matching += 1;
  });

  it.each(TYPED)('the widget refuses a booking typed %s by the guest blacklisted as %s', async (typed, stored) => {
    const { hotel, category } = await hotelWithRoom();
    await blacklisted(hotel, stored);
    const refused = await t.http
      .post(widget(hotel, '/bookings'))
      .send(widgetBooking(category.id, typed, { guest_last_name: 'Другой' }))
      .expect(403);
    expect(refused.body.code).toBe('booking_refused');
    const { body: bookings } = await t.http.get(api(hotel, '/bookings')).set(as(hotel.accessToken)).expect(200);
    expect(bookings).toHaveLength(0);
    passed.matching += 1;
  });

  it('the widget takes a booking with no phone number beside a blacklisted profile with the same text', async () => {
    const { hotel, category } = await hotelWithRoom();
    await blacklisted(hotel, UNPARSEABLE[1]);
    await t.http.post(widget(hotel, '/bookings')).send(widgetBooking(category.id, UNPARSEABLE[0])).expect(201);
    passed.matching += 1;
  });

  it.each(TYPED)('a second stay typed %s is the guest first booked as %s', async (typed, stored) => {
    const { hotel, room } = await hotelWithRoom();
    const first = await staffBooking(hotel, room.id, { guest_last_name: 'Повторов', guest_phone: stored });
    const second = await staffBooking(hotel, room.id, {
      guest_last_name: 'Повторов',
      guest_phone: typed,
      check_in: localDay(5),
      check_out: localDay(6),
    });
    expect(second.guestIds).toEqual(first.guestIds);
    const { body } = await t.http
      .get(api(hotel, '/guests'))
      .query({ q: 'Повторов' })
      .set(as(hotel.accessToken))
      .expect(200);
    expect(body).toHaveLength(1);
    expect(body[0].phone).toBe(stored);
    passed.matching += 1;
  });

  it('two stays with no phone number, the same text, are two guests', async () => {
    const { hotel, room } = await hotelWithRoom();
    const first = await staffBooking(hotel, room.id, { guest_last_name: 'Повторов', guest_phone: UNPARSEABLE[1] });
    const second = await staffBooking(hotel, room.id, {
      guest_last_name: 'Повторов',
      guest_phone: UNPARSEABLE[0],
      check_in: localDay(5),
      check_out: localDay(6),
    });
    expect(second.guestIds).not.toEqual(first.guestIds);
    passed.matching += 1;
  });

  it.each(TYPED)("the widget's look-up by %s finds the guest stored as %s", async (typed, stored) => {
    const { hotel, room } = await hotelWithRoom();
    await staffBooking(hotel, room.id, { guest_last_name: 'Гостева', guest_first_name: 'Вера', guest_phone: stored });
    const { body } = await t.http.get(widget(hotel, '/guests/lookup')).query({ phone: typed }).expect(200);
    expect(body).toEqual({ found: true, first_name: 'Вера' });
    passed.matching += 1;
  });

  it("the widget's look-up by no phone number finds nobody, even the same text", async () => {
    const { hotel, room } = await hotelWithRoom();
    await staffBooking(hotel, room.id, { guest_last_name: 'Гостева', guest_phone: UNPARSEABLE[1] });
    const { body } = await t.http.get(widget(hotel, '/guests/lookup')).query({ phone: UNPARSEABLE[0] }).expect(200);
    expect(body).toEqual({ found: false, first_name: null });
    passed.matching += 1;
  });
});

/** A hotel with a YooKassa shop (auto-confirming paid online bookings), rooms, and a desk whose agent prints. */
async function hotelTakingPayments() {
  const hotel = await registerHotel(t);
  const shopId = `${process.pid}${Date.now() % 100000}${shopSequence++}`;
  const secretKey = `test_phones_${shopId}`;
  await fake.openShop(shopId, secretKey, `${t.baseUrl}/api/payments/yookassa/notifications`);
  await t.http
    .post(api(hotel, '/payment-gateways'))
    .set(as(hotel.accessToken))
    .send({ provider: 'yookassa', shop_id: shopId, secret_key: secretKey, auto_confirm_on_payment: true })
    .expect(201);
  const category = await createCategory(t, hotel, { base_price: 3000 });
  const rooms = [];
  for (let i = 0; i < 4; i++) rooms.push((await createRoom(t, hotel, category.id)).id as string);
  return { hotel, category, rooms };
}

type Payments = Awaited<ReturnType<typeof hotelTakingPayments>>;

async function bookingOf(
  s: Payments,
  room: string,
  phone: string,
  stay = { check_in: localDay(1), check_out: localDay(2) },
) {
  const { body } = await t.http
    .post(api(s.hotel, '/bookings'))
    .set(as(s.hotel.accessToken))
    .send({ room_id: room, guest_last_name: 'Платёжная', guest_first_name: 'Анна', guest_phone: phone, ...stay })
    .expect(201);
  return body as { id: string; price: string };
}

const bookingWhen = (s: Payments, id: string, what: string, done: (booking: Record<string, unknown>) => boolean) =>
  until(
    async () => {
      const { body } = await t.http
        .get(api(s.hotel, `/bookings/${id}`))
        .set(as(s.hotel.accessToken))
        .expect(200);
      return done(body) && body;
    },
    { what, intervalMs: 100 },
  );

/** The provider's answer to the payment its workflow created: a page to pay on, or its refusal. */
async function settledAtProvider(path: string, s: Payments) {
  return until(
    async () => {
      const { body } = await t.http.get(path).set(as(s.hotel.accessToken)).expect(200);
      const [payment] = Array.isArray(body) ? body : [body];
      return (payment.confirmation_url || ['canceled', 'cancelled'].includes(payment.status)) && payment;
    },
    { what: 'the payment created or refused at the provider', intervalMs: 100 },
  );
}

describe('payloads: every provider gets the form it documents; no phone number never fails a payment', () => {
  const everyForm = [...TYPED.map(([typed]) => typed), UNPARSEABLE[0]];

  it.each(everyForm)('an online payment of a booking whose guest phone is %s is paid', async (typed) => {
    const s = await hotelTakingPayments();
    const booking = await bookingOf(s, s.rooms[0], typed);
    const path = api(s.hotel, `/bookings/${booking.id}/online-payments`);
    await t.http.post(path).set(as(s.hotel.accessToken)).send({}).expect(201);
    const payment = await settledAtProvider(path, s);
    expect(payment).toMatchObject({ status: 'pending', confirmation_url: expect.any(String) });
    await fake.pay(payment.confirmation_url, 'success');
    await bookingWhen(s, booking.id, 'the booking paid', (b) => b.paid_amount === booking.price);
    passed.payloads += 1;
  });

  it.each(everyForm)('a yookassa_charge deposit of a guest whose phone is %s is paid', async (typed) => {
    const s = await hotelTakingPayments();
    const booking = await bookingOf(s, s.rooms[1], typed, { check_in: localDay(-1), check_out: localDay(1) });
    const path = api(s.hotel, `/bookings/${booking.id}/deposit`);
    await t.http.post(path).set(as(s.hotel.accessToken)).send({ kind: 'yookassa_charge', amount: '1500' }).expect(201);
    const deposit = await settledAtProvider(path, s);
    expect(deposit.status).not.toBe('cancelled');
    await fake.pay(deposit.confirmation_url, 'success');
    await until(
      async () => {
        const { body } = await t.http.get(path).set(as(s.hotel.accessToken)).expect(200);
        return body.status === 'paid';
      },
      { what: 'the deposit paid', intervalMs: 100 },
    );
    passed.payloads += 1;
  });

  it.each(everyForm)('a widget booking by a guest whose phone is %s is confirmed once paid', async (typed) => {
    const s = await hotelTakingPayments();
    const { body } = await t.http
      .post(widget(s.hotel, '/bookings'))
      .send(
        widgetBooking(s.category.id, typed, { guest_last_name: 'Виджетова', return_url: 'https://hotel.example/ok' }),
      )
      .expect(201);
    expect(body.payment).toMatchObject({ status: 'pending', confirmation_url: expect.stringContaining('/payer/') });
    await fake.pay(body.payment.confirmation_url, 'success');
    const booking = await bookingWhen(
      s,
      body.booking.id,
      'the widget booking confirmed',
      (b) => b.status === 'confirmed',
    );
    expect(booking).toMatchObject({ source: 'online', guest_phone: typed, balance: '0.00' });
    passed.payloads += 1;
  });

  const atolCases: [typed: string, sent: string | undefined][] = [
    ...TYPED.map(([typed]): [string, string] => [typed, NUMBER]),
    [UNPARSEABLE[0], undefined],
  ];
  it.each(atolCases)(
    'the ATOL task for a desk payment of a guest whose phone is %s carries %s',
    async (typed, sent) => {
      const s = await hotelTakingPayments();
      const devices = [{ name: 'АТОЛ 30Ф', type: 'fiscal_register', connection: 'usb' }];
      const desk = await deskWithAgent(t, s.hotel, { workstation: { name: 'Касса' }, devices });
      agents.push(desk.agent);
      const booking = await bookingOf(s, s.rooms[2], typed);
      const paid = await t.http
        .post(api(s.hotel, `/bookings/${booking.id}/payments`))
        .set(as(s.hotel.accessToken))
        .send({ amount: '1000', method: 'cash', workstation_id: desk.id })
        .expect(201);
      await until(async () => desk.agent.receipts.length === 1, { what: 'the receipt at the agent', intervalMs: 100 });
      const [{ task }] = desk.agent.receipts;
      expect(task).toEqual(paid.body.fiscal_receipt.task);
      if (sent) expect(task.clientInfo).toEqual({ emailOrPhone: sent });
      else expect(task).not.toHaveProperty('clientInfo');
      passed.payloads += 1;
    },
  );
});

describe('stored phones', () => {
  it('are rewritten to the normal form by migration 084; text that is no number loses its digits form', async () => {
    const { hotel } = await hotelWithRoom();
    const rows = [
      ['8 (900) 555-00-11', '89005550011', NUMBER],
      ['900 555-00-11', '9005550011', NUMBER],
      ['+44 20 7946 0958', '442079460958', '+442079460958'],
      [UNPARSEABLE[1], '12345', null],
    ].map(([phone, digits, normal]) => ({ id: randomUUID(), phone: phone!, digits, normal }));
    await t.db('guests').insert(
      rows.map((row) => ({
        id: row.id,
        hotel_id: hotel.hotelId,
        last_name: 'Мигрантов',
        first_name: 'Пётр',
        search_name: 'мигрантов петр',
        phone: row.phone,
        phone_normalized: row.digits,
      })),
    );
    await normaliseStoredPhones(t.db);
    const stored = await t
      .db('guests')
      .whereIn(
        'id',
        rows.map((row) => row.id),
      )
      .select('id', 'phone', 'phone_normalized');
    for (const row of rows) {
      expect(stored.find((guest) => guest.id === row.id)).toEqual({
        id: row.id,
        phone: row.phone,
        phone_normalized: row.normal,
      });
    }
    const { body } = await t.http.get(widget(hotel, '/guests/lookup')).query({ phone: '+7 900 555 00 11' }).expect(200);
    expect(body).toEqual({ found: true, first_name: 'Пётр' });
  });
});
