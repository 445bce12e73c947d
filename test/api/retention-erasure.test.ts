import { randomInt } from 'node:crypto';
import { fixtureRequisites } from '../../src/modules/invoices/invoices.fixtures';
import { createTestApp, type TestApp } from '../helpers/app';
import { as, registerHotel, uniqueEmail, type RegisteredHotel } from '../helpers/accounts';
import { localDay } from '../helpers/dates';
import { pdfText } from '../helpers/pdf';
import { databaseHits } from '../helpers/personal-data';
import { createCategory, createRoom } from '../helpers/structure';
import { withTemporal } from '../helpers/workflows';

let t: TestApp;
let owner: RegisteredHotel;
beforeAll(async () => {
  t = createTestApp();
  owner = await registerHotel(t);
});
afterAll(() => t.close());

const api = (hotel: RegisteredHotel, path: string) => `/api/hotels/${hotel.slug}${path}`;
const erase = (guestId: string, hotel = owner) =>
  t.http.post(api(hotel, `/personal-data/guests/${guestId}/erasure`)).set(as(hotel.accessToken));

/** A person of their own: a surname, a phone and an e-mail no other test uses. */
function person(first = 'Анна', series = '4510') {
  const n = randomInt(1e6, 1e7);
  return {
    last_name: `Стёртая${n}`,
    first_name: first,
    phone: `+7915${n}`,
    email: uniqueEmail(`erase-${n}`),
    passport_series: series,
    passport_number: String(n).slice(0, 6),
  };
}
type Person = ReturnType<typeof person>;
const fullNames = (p: Person) => [`${p.last_name} ${p.first_name}`, `${p.first_name} ${p.last_name}`];

async function guestWith(p: Person, hotel = owner) {
  const { body } = await t.http.post(api(hotel, '/guests')).set(as(hotel.accessToken)).send(p).expect(201);
  return body.id as string;
}

/** A booking of `p` (its primary guest) in a room of its own, `from` days from today, 2 nights, 4000 paid. */
async function stayOf(p: Person, guestId: string, from: number, hotel = owner, notes = `Звонить ${p.phone}`) {
  const category = await createCategory(t, hotel);
  const room = await createRoom(t, hotel, category.id);
  const { body } = await t.http
    .post(api(hotel, '/bookings'))
    .set(as(hotel.accessToken))
    .send({
      room_id: room.id,
      check_in: localDay(from),
      check_out: localDay(from + 2),
      guest_id: guestId,
      guest_last_name: p.last_name,
      guest_first_name: p.first_name,
      guest_phone: p.phone,
      guest_email: p.email,
      notes,
      price: '9000',
    })
    .expect(201);
  await t.http
    .post(api(hotel, `/bookings/${body.id}/payments`))
    .set(as(hotel.accessToken))
    .send({ amount: '4000', method: 'cash', note: `от ${p.last_name}` })
    .expect(201);
  return body.id as string;
}

const rentalOf = async (p: Person, comment: string) => {
  const object = await t.http
    .post(api(owner, '/rental-objects'))
    .set(as(owner.accessToken))
    .send({
      name: `Корт ${p.last_name.slice(-5)}`,
      price_per_hour: 1500,
      open_hour: 8,
      close_hour: 22,
      is_active: true,
    })
    .expect(201);
  const day = localDay(30);
  const { body } = await t.http
    .post(api(owner, '/rental-bookings'))
    .set(as(owner.accessToken))
    .send({
      rental_object_id: object.body.id,
      kind: 'hourly',
      start_at: `${day}T10:00:00+03:00`,
      end_at: `${day}T12:00:00+03:00`,
      guest_name: `${p.last_name} ${p.first_name}`,
      guest_phone: p.phone,
      guest_email: p.email,
      comment,
    })
    .expect(201);
  return body.id as string;
};

/** A trigger of the test's own raising an error when `table`'s row matching `when` is updated. */
async function failing(table: string, when: string) {
  await t.db.raw(`CREATE OR REPLACE FUNCTION test_fail_${table}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN IF ${when} THEN RAISE EXCEPTION 'test failure'; END IF; RETURN NEW; END $$`);
  await t.db.raw(`CREATE TRIGGER test_fail_${table} BEFORE UPDATE ON ${table} FOR EACH ROW
    EXECUTE FUNCTION test_fail_${table}()`);
  return () => t.db.raw(`DROP TRIGGER test_fail_${table} ON ${table}`);
}

describe('erasure writes what the columns accept', () => {
  it('erases a guest with a rental booking (its comment) and a tourist tax exemption, the exemption still readable', async () => {
    const p = person();
    const guestId = await guestWith(p);
    const bookingId = await stayOf(p, guestId, -3);
    await t.http
      .put(api(owner, `/bookings/${bookingId}/tourist-tax-exemption`))
      .set(as(owner.accessToken))
      .send({
        category: 'student',
        document_kind: 'Студенческий билет',
        document_number: `СБ-${p.passport_number}`,
        document_date: '2025-09-01',
      })
      .expect(200);
    const rentalId = await rentalOf(p, `Я ${p.last_name}`);
    // The rental booking to come (matched by the guest's phone) is a stay to come.
    expect((await erase(guestId).expect(409)).body.code).toBe('guest_staying');
    await t.http
      .patch(api(owner, `/rental-bookings/${rentalId}`))
      .set(as(owner.accessToken))
      .send({ status: 'cancelled' })
      .expect(200);

    const exported = (
      await t.http
        .get(api(owner, `/personal-data/guests/${guestId}/export`))
        .set(as(owner.accessToken))
        .expect(200)
    ).body;
    expect(exported).toMatchObject({
      rental_bookings: [expect.objectContaining({ id: rentalId, comment: `Я ${p.last_name}` })],
      tourist_tax_exemptions: [
        expect.objectContaining({ booking_id: bookingId, document_number: `СБ-${p.passport_number}` }),
      ],
      folio_lines: expect.arrayContaining([expect.objectContaining({ booking_id: bookingId })]),
      invoices: [],
      fiscal_receipts: [],
    });

    await erase(guestId).expect(200);
    const rental = await t.db('rental_bookings').where({ hotel_id: owner.hotelId, id: rentalId }).first();
    expect(rental).toMatchObject({ guest_name: '[erased]', comment: '', guest_email: null });
    const exemption = await t.http
      .get(api(owner, `/bookings/${bookingId}/tourist-tax-exemption`))
      .set(as(owner.accessToken))
      .expect(200);
    expect(exemption.body).toMatchObject({ category: 'student', document_number: '[erased]' });
    expect(await databaseHits(t, [p.last_name, p.phone, p.email, `СБ-${p.passport_number}`])).toEqual([]);
  });

  it('the sweep erases the other hotels when one guest fails, and reports the failing one', async () => {
    const hotels = [await registerHotel(t), await registerHotel(t)].sort((a, b) => a.hotelId.localeCompare(b.hotelId));
    const [first, second] = await Promise.all(
      hotels.map(async (hotel) => {
        await t.http
          .patch(api(hotel, '/retention-settings'))
          .set(as(hotel.accessToken))
          .send({ guest_data_days: 30 })
          .expect(200);
        return guestWith(person(), hotel);
      }),
    );
    // The first hotel's guest (first in the sweep's order) cannot be erased.
    const restore = await failing('guests', `OLD.id = '${first}'`);
    try {
      await withTemporal((client) =>
        client.workflow.execute('retentionSweep', {
          taskQueue: 'hotel',
          workflowId: `retention-sweep-failing-${first}`,
          args: [{ now: new Date(Date.now() + 40 * 86_400_000).toISOString() }],
        }),
      );
    } finally {
      await restore();
    }
    const rows = await t.db('guests').whereIn('id', [first, second]).select('id', 'erased_at');
    expect(Object.fromEntries(rows.map((row) => [row.id, row.erased_at !== null]))).toEqual({
      [first]: false,
      [second]: true,
    });
  });
});

describe('erasure touches only the guest', () => {
  it('leaves other people’s names, dates and numbers alone: same first name, a series like a year, other hotels', async () => {
    const erased = person('Анна', '2026');
    const other = person('Анна');
    const otherHotel = await registerHotel(t);
    const erasedId = await guestWith(erased);
    await stayOf(erased, erasedId, -5);
    const otherId = await guestWith(other);
    const otherBooking = await stayOf(other, otherId, 10, owner, `Анна приедет 2026-05-01, паспорт 2026`);
    await stayOf(other, await guestWith(other, otherHotel), 10, otherHotel, `Анна ${erased.phone.slice(1)}`);
    const snapshot = async () => ({
      notifications: await t
        .db('notifications')
        .whereNot({ title: '' })
        .orderBy('id')
        .select('id', 'title', 'body', 'data'),
      realtime: await t.db('realtime_events').orderBy('id').select(t.db.raw("hotel_id || ':' || id AS id"), 'payload'),
      outbox: await t.db('outbox').orderBy('id').select('id', 'message'),
      bookings: await t.db('bookings').whereIn('id', [otherBooking]).select('*'),
    });
    const mentions = (row: object) =>
      [erased.last_name, erased.phone, erased.email].some((needle) => JSON.stringify(row).includes(needle));
    const before = await snapshot();

    await erase(erasedId).expect(200);
    const after = await snapshot();
    for (const key of ['notifications', 'realtime', 'outbox', 'bookings'] as const) {
      const others = before[key].filter((row) => !mentions(row));
      expect(others.length).toBeGreaterThan(0);
      const now = new Map(after[key].map((row) => [row.id, row]));
      expect(others.map((row) => now.get(row.id) ?? row)).toEqual(others);
    }
    const stillThere = (
      await t.http
        .get(api(owner, `/guests/${otherId}`))
        .set(as(owner.accessToken))
        .expect(200)
    ).body;
    expect(stillThere).toMatchObject({ first_name: 'Анна', last_name: other.last_name });
    expect(await databaseHits(t, [erased.last_name, erased.phone, erased.email])).toEqual([]);
  });

  it('erasing or exporting a companion leaves the primary guest’s booking as it was', async () => {
    const primary = person('Ольга');
    const companion = person('Пётр');
    const bookingId = await stayOf(primary, await guestWith(primary), -5);
    const companionId = await guestWith(companion);
    await t.http
      .post(api(owner, `/bookings/${bookingId}/guests`))
      .set(as(owner.accessToken))
      .send({ guest_id: companionId })
      .expect(200);
    const exported = (
      await t.http
        .get(api(owner, `/personal-data/guests/${companionId}/export`))
        .set(as(owner.accessToken))
        .expect(200)
    ).body;
    expect(exported.bookings).toEqual([]);
    expect(exported.companion_stays).toEqual([expect.objectContaining({ booking_id: bookingId })]);
    const booking = () => t.db('bookings').where({ hotel_id: owner.hotelId, id: bookingId }).first();
    const before = await booking();
    await erase(companionId).expect(200);
    expect(await booking()).toEqual(before);
  });
});

describe('a profile written to again after its erasure', () => {
  it('is erased again', async () => {
    const p = person();
    const guestId = await guestWith(p);
    await erase(guestId).expect(200);
    await t.http
      .patch(api(owner, `/guests/${guestId}`))
      .set(as(owner.accessToken))
      .send({ last_name: p.last_name, phone: p.phone })
      .expect(200);
    const again = (await erase(guestId).expect(200)).body;
    expect(again.erased).toEqual(expect.arrayContaining([{ place: 'guests', rows: 1 }]));
    expect(await databaseHits(t, [p.last_name, p.phone])).toEqual([]);
  });
});

describe('invoices of an erased guest', () => {
  it('keep no name in their lines, payer, a sole trader folio or re-rendered PDF; a failed erasure leaves the PDF downloadable', async () => {
    const p = person('Мария');
    await t.http.patch(api(owner, '/settings')).set(as(owner.accessToken)).send(fixtureRequisites('test')).expect(200);
    const bookingId = await stayOf(p, await guestWith(p), -4);
    const folios = await t.http
      .get(api(owner, `/bookings/${bookingId}/folio`))
      .set(as(owner.accessToken))
      .expect(200);
    const folio = folios.body.folios.find((f: { payer_kind: string }) => f.payer_kind === 'guest');
    await t.http
      .post(api(owner, `/bookings/${bookingId}/folio/lines`))
      .set(as(owner.accessToken))
      .send({ kind: 'service', amount: '700', vat_rate: '20', description: `Трансфер ${p.first_name} ${p.last_name}` })
      .expect(201);
    // A sole trader's folio in the guest's own name: the payer is the person.
    await t.http
      .post(api(owner, `/bookings/${bookingId}/folio/companies`))
      .set(as(owner.accessToken))
      .send({ payer_name: `ИП ${p.last_name} ${p.first_name}`, payer_inn: '500100732259' })
      .expect(201);
    const invoice = (
      await t.http.post(api(owner, '/invoices')).set(as(owner.accessToken)).send({ folio_id: folio.id }).expect(201)
    ).body;
    const pdf = async () =>
      pdfText(
        (
          await t.http
            .get(api(owner, `/invoices/${invoice.id}/pdf`))
            .set(as(owner.accessToken))
            .buffer(true)
            .parse((res, done) => {
              const chunks: Buffer[] = [];
              res.on('data', (chunk: Buffer) => chunks.push(chunk));
              res.on('end', () => done(null, Buffer.concat(chunks)));
            })
            .expect(200)
        ).body as Buffer,
      );
    expect(await pdf()).toContain(p.last_name);

    // An erasure failing at its last step: the PDF it would remove is still there to download.
    const guestId = (await t.db('booking_guests').where({ hotel_id: owner.hotelId, booking_id: bookingId }).first())
      .guest_id as string;
    const restore = await failing('invoices', 'NEW.pdf_key IS NULL AND OLD.pdf_key IS NOT NULL');
    try {
      await erase(guestId).expect(500);
    } finally {
      await restore();
    }
    expect(await pdf()).toContain(p.last_name);

    await erase(guestId).expect(200);
    const text = (await pdf()).replace(/\s+/g, ' ');
    for (const needle of [p.last_name, ...fullNames(p)]) expect(text).not.toContain(needle);
    const read = (
      await t.http
        .get(api(owner, `/invoices/${invoice.id}`))
        .set(as(owner.accessToken))
        .expect(200)
    ).body;
    expect(JSON.stringify(read)).not.toContain(p.last_name);
    expect(await databaseHits(t, [p.last_name, ...fullNames(p)])).toEqual([]);
  });
});
