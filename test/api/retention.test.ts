import { randomInt } from 'node:crypto';
import { Writable } from 'node:stream';
import { createLogger } from '../../src/platform/logger';
import { createTestApp, type TestApp } from '../helpers/app';
import { addStaff, as, registerHotel, uniqueEmail, type RegisteredHotel } from '../helpers/accounts';
import { localDay } from '../helpers/dates';
import { databaseHits, objectStoreHits } from '../helpers/personal-data';
import { createCategory, createRoom } from '../helpers/structure';
import { withTemporal } from '../helpers/workflows';

const logged: string[] = [];
const logger = createLogger('debug', 'test', {
  destination: new Writable({
    write(chunk: Buffer, _encoding, done) {
      logged.push(chunk.toString());
      done();
    },
  }),
});

let t: TestApp;
let owner: RegisteredHotel;
beforeAll(async () => {
  t = createTestApp({}, { logger });
  owner = await registerHotel(t);
});
afterAll(() => t.close());

const api = (hotel: RegisteredHotel, path: string) => `/api/hotels/${hotel.slug}${path}`;
const erasure = (guestId: string) => api(owner, `/personal-data/guests/${guestId}/erasure`);

/** A person no other test names: a surname, a phone, an e-mail and a passport number of their own. */
function person() {
  const n = randomInt(1e6, 1e7);
  return {
    last_name: `Забытова${n}`,
    first_name: 'Ирина',
    phone: `+7916${n}`,
    email: uniqueEmail(`forget-${n}`),
    passport_series: '4510',
    passport_number: String(n).slice(0, 6).padStart(6, '7'),
    birth_date: `19${String(n).slice(0, 2)}-0${(n % 9) + 1}-1${n % 10}`,
  };
}
type Person = ReturnType<typeof person>;
const needlesOf = (p: Person) => [
  p.last_name,
  `${p.first_name} ${p.last_name}`,
  `${p.last_name} ${p.first_name}`,
  p.phone.slice(2),
  p.email,
  `${p.passport_series} ${p.passport_number}`,
  p.birth_date,
];

async function guestWith(p: Person) {
  const { body } = await t.http.post(api(owner, '/guests')).set(as(owner.accessToken)).send(p).expect(201);
  return body.id as string;
}

/** A stay of `p` in a room of its own, from `from` days for `nights`, at 9000 with 4000 paid. */
async function stayOf(p: Person, guestId: string, from: number, nights = 2) {
  const category = await createCategory(t, owner);
  const room = await createRoom(t, owner, category.id);
  const { body } = await t.http
    .post(api(owner, '/bookings'))
    .set(as(owner.accessToken))
    .send({
      room_id: room.id,
      check_in: localDay(from),
      check_out: localDay(from + nights),
      guest_id: guestId,
      guest_last_name: p.last_name,
      guest_first_name: p.first_name,
      guest_phone: p.phone,
      guest_email: p.email,
      notes: `Звонить ${p.phone}`,
      price: '9000',
    })
    .expect(201);
  await t.http
    .post(api(owner, `/bookings/${body.id}/payments`))
    .set(as(owner.accessToken))
    .send({ amount: '4000', method: 'cash', note: `от ${p.last_name}` })
    .expect(201);
  return { bookingId: body.id as string, categoryId: category.id };
}

const setStatus = (bookingId: string, status: string) =>
  t.http
    .patch(api(owner, `/bookings/${bookingId}`))
    .set(as(owner.accessToken))
    .send({ status })
    .expect(200);

const books = async (bookingId: string) => {
  const booking = (
    await t.http
      .get(api(owner, `/bookings/${bookingId}`))
      .set(as(owner.accessToken))
      .expect(200)
  ).body;
  const folio = (
    await t.http
      .get(api(owner, `/bookings/${bookingId}/folio`))
      .set(as(owner.accessToken))
      .expect(200)
  ).body;
  return { price: booking.price, paid: booking.paid_amount, balance: folio.balance, folios: folio.folios };
};

describe('retention settings', () => {
  it('default to three years, take 30 days to 10 years, and are the management’s', async () => {
    const path = api(owner, '/retention-settings');
    const { body } = await t.http.get(path).set(as(owner.accessToken)).expect(200);
    expect(body.guest_data_days).toBe(1095);
    for (const days of [29, 3651, 'many'])
      await t.http.patch(path).set(as(owner.accessToken)).send({ guest_data_days: days }).expect(400);
    const desk = await addStaff(t, owner, 'receptionist');
    await t.http.get(path).set(as(desk.accessToken)).expect(403);
    await t.http.post(erasure(body.hotel_id)).set(as(desk.accessToken)).expect(403);
  });
});

describe('export and erasure on request', () => {
  it('exports everything held, refuses while a stay is to come, then erases it from every place, books intact', async () => {
    const p = person();
    const guestId = await guestWith(p);
    const stay = await stayOf(p, guestId, -3);
    await setStatus(stay.bookingId, 'checked_in');
    await t.http.post(erasure(guestId)).set(as(owner.accessToken)).expect(409);
    await setStatus(stay.bookingId, 'checked_out');

    // The widget's booking of the same guest (matched by phone): consent recorded, staff notified, mails queued.
    await t.http.patch(api(owner, '/widget-settings')).set(as(owner.accessToken)).send({ consent_text_version: 'v7' });
    const submitted = await t.http
      .post(`/api/widget/${owner.slug}/bookings`)
      .send({
        category_id: stay.categoryId,
        check_in: localDay(20),
        check_out: localDay(21),
        guest_last_name: p.last_name,
        guest_first_name: p.first_name,
        guest_phone: p.phone,
        guest_email: p.email,
        comment: `Я ${p.last_name}, паспорт ${p.passport_series} ${p.passport_number}`,
      })
      .expect(201);
    const futureId = submitted.body.booking.id as string;
    const refused = await t.http.post(erasure(guestId)).set(as(owner.accessToken)).expect(409);
    expect(refused.body.code).toBe('guest_staying');

    const exported = (
      await t.http
        .get(api(owner, `/personal-data/guests/${guestId}/export`))
        .set(as(owner.accessToken))
        .expect(200)
    ).body;
    expect(exported.guest).toMatchObject({ last_name: p.last_name, passport_number: p.passport_number });
    expect(exported.bookings.map((b: { id: string }) => b.id).sort()).toEqual([stay.bookingId, futureId].sort());
    expect(exported.consents).toEqual([expect.objectContaining({ booking_id: futureId, text_version: 'v7' })]);

    await setStatus(futureId, 'cancelled');
    // The search finds the guest where the data lives before the erasure.
    expect(await databaseHits(t, needlesOf(p))).toEqual(
      expect.arrayContaining(['guests.search_name', 'bookings.guest_phone', 'bookings.notes', 'notifications.title']),
    );
    const before = await books(stay.bookingId);
    const { body: report } = await t.http.post(erasure(guestId)).set(as(owner.accessToken)).expect(200);
    expect(report.erased).toEqual(expect.arrayContaining([{ place: 'guests', rows: 1 }]));
    expect(report.kept.length).toBeGreaterThan(0);

    expect(await databaseHits(t, needlesOf(p))).toEqual([]);
    expect(await objectStoreHits(t, needlesOf(p))).toEqual([]);
    const log = logged.join('\n');
    for (const needle of needlesOf(p)) expect(log).not.toContain(needle);
    const after = await books(stay.bookingId);
    expect(after).toEqual(before);
    const guest = (
      await t.http
        .get(api(owner, `/guests/${guestId}`))
        .set(as(owner.accessToken))
        .expect(200)
    ).body;
    expect(guest).toMatchObject({
      last_name: '[erased]',
      phone: null,
      email: null,
      birth_date: null,
      passport_on_file: false,
    });
    // Again: nothing more to erase.
    const again = (await t.http.post(erasure(guestId)).set(as(owner.accessToken)).expect(200)).body;
    expect(again.erased).toEqual([]);
  });

  it('answers 404 for a guest of another hotel', async () => {
    const other = await registerHotel(t);
    const { body } = await t.http
      .post(api(other, '/guests'))
      .set(as(other.accessToken))
      .send({ last_name: 'Чужая', first_name: 'Гостья' })
      .expect(201);
    await t.http.post(erasure(body.id)).set(as(owner.accessToken)).expect(404);
    await t.http
      .get(api(owner, `/personal-data/guests/${body.id}/export`))
      .set(as(owner.accessToken))
      .expect(404);
  });
});

describe('the retention sweep', () => {
  it('erases the guests whose period passed since their last stay, at the "now" it is given, and only them', async () => {
    const hotel = await registerHotel(t);
    await t.http
      .patch(api(hotel, '/retention-settings'))
      .set(as(hotel.accessToken))
      .send({ guest_data_days: 30 })
      .expect(200);
    const make = async (p: Person) =>
      (await t.http.post(api(hotel, '/guests')).set(as(hotel.accessToken)).send(p).expect(201)).body.id as string;
    const expired = person();
    const kept = person();
    const expiredId = await make(expired);
    const keptId = await make(kept);
    const inFortyDays = new Date(Date.now() + 40 * 86_400_000).toISOString();
    // The kept guest stays in 35 days: within 30 days of the sweep's "now".
    await t
      .db('guests')
      .where({ id: keptId })
      .update({ created_at: t.db.raw("now() - interval '1 day'") });
    const category = await createCategory(t, hotel);
    const room = await createRoom(t, hotel, category.id);
    await t.http
      .post(api(hotel, '/bookings'))
      .set(as(hotel.accessToken))
      .send({
        room_id: room.id,
        check_in: localDay(34),
        check_out: localDay(35),
        guest_id: keptId,
        guest_last_name: kept.last_name,
        guest_first_name: kept.first_name,
      })
      .expect(201);

    const erased = await withTemporal((client) =>
      client.workflow.execute('retentionSweep', {
        taskQueue: 'hotel',
        workflowId: `retention-sweep-test-${hotel.hotelId}`,
        args: [{ now: inFortyDays }],
      }),
    );
    expect(erased).toBeGreaterThanOrEqual(1);
    expect(await databaseHits(t, needlesOf(expired))).toEqual([]);
    expect(await databaseHits(t, [kept.last_name])).not.toEqual([]);
    const rows = await t.db('guests').whereIn('id', [expiredId, keptId]).select('id', 'erased_at');
    expect(Object.fromEntries(rows.map((row) => [row.id, row.erased_at !== null]))).toEqual({
      [expiredId]: true,
      [keptId]: false,
    });
  });
});

describe('the widget consent', () => {
  it('is the version the widget shows; a page showing an older text is refused (409), nothing made', async () => {
    const hotel = await registerHotel(t);
    await t.http
      .patch(api(hotel, '/widget-settings'))
      .set(as(hotel.accessToken))
      .send({ consent_text_version: '2026-11' })
      .expect(200);
    const { body: config } = await t.http.get(`/api/widget/${hotel.slug}/config`).expect(200);
    expect(config.widgetSettings.consent_text_version).toBe('2026-11');
    const category = await createCategory(t, hotel);
    await createRoom(t, hotel, category.id);
    const refused = await t.http
      .post(`/api/widget/${hotel.slug}/bookings`)
      .send({
        category_id: category.id,
        check_in: localDay(5),
        check_out: localDay(6),
        guest_last_name: 'Старая',
        guest_first_name: 'Версия',
        guest_phone: '+79160001122',
        consent_version: '2026-10',
      })
      .expect(409);
    expect(refused.body.code).toBe('consent_outdated');
    const [{ count }] = await t.db('bookings').where({ hotel_id: hotel.hotelId }).count({ count: '*' });
    expect(Number(count)).toBe(0);
  });

  it('is written with the booking or not at all, and a retry with the same key answers the same after the text changed', async () => {
    const hotel = await registerHotel(t);
    const settings = (version: string) =>
      t.http
        .patch(api(hotel, '/widget-settings'))
        .set(as(hotel.accessToken))
        .send({ consent_text_version: version })
        .expect(200);
    await settings('v1');
    const category = await createCategory(t, hotel);
    await createRoom(t, hotel, category.id);
    const submission = {
      category_id: category.id,
      check_in: localDay(5),
      check_out: localDay(6),
      guest_last_name: 'Согласная',
      guest_first_name: 'Вера',
      guest_phone: '+79160003344',
      consent_version: 'v1',
    };
    const bookingsOf = async () =>
      Number((await t.db('bookings').where({ hotel_id: hotel.hotelId }).count({ count: '*' }))[0].count);

    // The consent cannot be written: no booking either.
    await t.db.raw(`CREATE FUNCTION test_no_consent() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'test failure'; END $$`);
    await t.db.raw(`CREATE TRIGGER test_no_consent BEFORE INSERT ON personal_data_consents FOR EACH ROW
      EXECUTE FUNCTION test_no_consent()`);
    try {
      await t.http.post(`/api/widget/${hotel.slug}/bookings`).send(submission).expect(500);
    } finally {
      await t.db.raw('DROP TRIGGER test_no_consent ON personal_data_consents');
      await t.db.raw('DROP FUNCTION test_no_consent()');
    }
    expect(await bookingsOf()).toBe(0);

    const first = await t.http
      .post(`/api/widget/${hotel.slug}/bookings`)
      .set('Idempotency-Key', `consent-${hotel.hotelId}`)
      .send(submission)
      .expect(201);
    await settings('v2');
    const retried = await t.http
      .post(`/api/widget/${hotel.slug}/bookings`)
      .set('Idempotency-Key', `consent-${hotel.hotelId}`)
      .send(submission)
      .expect(201);
    expect(retried.body.booking.id).toBe(first.body.booking.id);
    expect(await bookingsOf()).toBe(1);
    const consents = await t.db('personal_data_consents').where({ hotel_id: hotel.hotelId });
    expect(consents).toEqual([expect.objectContaining({ booking_id: first.body.booking.id, text_version: 'v1' })]);
  });
});
