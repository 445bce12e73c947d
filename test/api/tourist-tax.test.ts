import { reencryptExemptionDocuments } from '../../src/modules/tourist-tax';
import { createTestApp, testConfig, type TestApp } from '../helpers/app';
import { TEST_APP_ENV } from '../helpers/stack-env';
import { addStaff, as, registerHotel, uniqueEmail, type RegisteredHotel } from '../helpers/accounts';
import { localDay } from '../helpers/dates';
import { waitForMessages } from '../helpers/mail';
import { bringStayTo, type StayStatus } from '../helpers/stays';
import { createCategory, createRoom } from '../helpers/structure';

let t: TestApp;
let owner: RegisteredHotel;
let other: RegisteredHotel;
beforeAll(async () => {
  t = createTestApp();
  [owner, other] = await Promise.all([registerHotel(t), registerHotel(t)]);
});
afterAll(() => t.close());

const api = (hotel: RegisteredHotel, path: string) => `/api/hotels/${hotel.slug}${path}`;
const settingsPath = (hotel: RegisteredHotel) => api(hotel, '/tourist-tax/settings');
const exemptionPath = (hotel: RegisteredHotel, bookingId: string) =>
  api(hotel, `/bookings/${bookingId}/tourist-tax-exemption`);
const THIS_YEAR = localDay(0).slice(0, 4);

const readSettings = (hotel: RegisteredHotel) => t.http.get(settingsPath(hotel)).set(as(hotel.accessToken)).expect(200);
const patchSettings = (hotel: RegisteredHotel, body: Record<string, unknown>, token = hotel.accessToken) =>
  t.http.patch(settingsPath(hotel)).set(as(token)).send(body);

/** A stay of `nights` ending today at `price`, checked in (and out unless told), in its own room. */
async function stay(
  hotel: RegisteredHotel,
  { nights = 2, price = '12000.00', status = 'checked_out' as StayStatus } = {},
) {
  const category = await createCategory(t, hotel);
  const room = await createRoom(t, hotel, category.id);
  const booked = await t.http
    .post(api(hotel, '/bookings'))
    .set(as(hotel.accessToken))
    .send({
      room_id: room.id,
      check_in: localDay(-nights),
      check_out: localDay(0),
      guest_last_name: 'Налогова',
      guest_first_name: 'Анна',
      price,
    })
    .expect(201);
  await bringStayTo(t, hotel, booked.body.id, status);
  return booked.body.id as string;
}

const student = {
  category: 'student',
  document_kind: 'Студенческий билет',
  document_number: 'СБ-000123',
  document_date: '2025-09-01',
};

describe('tourist tax settings', () => {
  it('start off, take the VAT of the receipts until set, and change at the version read', async () => {
    const hotel = await registerHotel(t);
    const initial = await readSettings(hotel);
    expect(initial.body).toMatchObject({
      enabled: false,
      rate: '0.00',
      seasons: [],
      vat_rate: null,
      applied_vat_rate: 'none',
      prices_include_vat: false,
    });
    await t.http
      .patch(api(hotel, '/payment-settings'))
      .set(as(hotel.accessToken))
      .send({ fiscal_vat: '20' })
      .expect(200);
    expect((await readSettings(hotel)).body).toMatchObject({ applied_vat_rate: '20', prices_include_vat: true });

    const etag = (await readSettings(hotel)).headers.etag as string;
    const changed = await patchSettings(hotel, { enabled: true, rate: 1, vat_rate: 'none' })
      .set('If-Match', etag)
      .expect(200);
    expect(changed.body).toMatchObject({ enabled: true, rate: '1.00', vat_rate: 'none', applied_vat_rate: 'none' });
    await patchSettings(hotel, { rate: '0.5' }).set('If-Match', etag).expect(412);
    expect((await readSettings(hotel)).body.rate).toBe('1.00');
  });

  it('refuse a rate above the legal maximum of a year, naming it, and seasons that overlap; nothing changes', async () => {
    const hotel = await registerHotel(t);
    await patchSettings(hotel, { enabled: true, rate: '1' }).expect(200);
    const above = await patchSettings(hotel, { rate: '5.5' }).expect(400);
    expect(JSON.stringify(above.body)).toContain(THIS_YEAR);

    const winter = await patchSettings(hotel, {
      seasons: [{ from: '2026-12-20', to: '2027-01-10', rate: '3' }],
    }).expect(400);
    expect(JSON.stringify(winter.body)).toContain('2026');
    const overlapping = await patchSettings(hotel, {
      seasons: [
        { from: '2027-06-01', to: '2027-06-30', rate: '3' },
        { from: '2027-05-01', to: '2027-06-01', rate: '2' },
      ],
    }).expect(400);
    expect(JSON.stringify(overlapping.body)).toContain('пересекаться');
    await patchSettings(hotel, { seasons: [{ from: '2027-06-10', to: '2027-06-01', rate: '1' }] }).expect(400);

    const kept = await patchSettings(hotel, {
      seasons: [
        { from: '2029-06-01', to: '2029-08-31', rate: '5' },
        { from: '2027-12-01', to: '2027-12-31', rate: 2.5 },
      ],
    }).expect(200);
    expect(kept.body.seasons).toEqual([
      { from: '2029-06-01', to: '2029-08-31', rate: '5.00' },
      { from: '2027-12-01', to: '2027-12-31', rate: '2.50' },
    ]);
    expect((await readSettings(hotel)).body).toMatchObject({ rate: '1.00', seasons: kept.body.seasons });
  });

  it('are set by management only; the desk and the accountant read them', async () => {
    const receptionist = await addStaff(t, owner, 'receptionist');
    const accountant = await addStaff(t, owner, 'accountant');
    const housekeeper = await addStaff(t, owner, 'housekeeper');
    await patchSettings(owner, { enabled: true }, receptionist.accessToken).expect(403);
    await t.http.get(settingsPath(owner)).set(as(receptionist.accessToken)).expect(200);
    await t.http.get(settingsPath(owner)).set(as(accountant.accessToken)).expect(200);
    await t.http.get(settingsPath(owner)).set(as(housekeeper.accessToken)).expect(403);
  });
});

describe("a guest's exemption", () => {
  it('the desk records it with the document, kept encrypted; it is read back, replaced and withdrawn', async () => {
    const bookingId = await stay(owner, { status: 'confirmed' });
    const receptionist = await addStaff(t, owner, 'receptionist');
    const recorded = await t.http
      .put(exemptionPath(owner, bookingId))
      .set(as(receptionist.accessToken))
      .send({ ...student, valid_until: '2030-06-30' })
      .expect(200);
    expect(recorded.body).toMatchObject({
      booking_id: bookingId,
      category: 'student',
      category_name: expect.stringContaining('Студенты'),
      document_number: 'СБ-000123',
      document_date: '2025-09-01',
      valid_until: '2030-06-30',
      recorded_by: receptionist.id,
    });
    const row = await t.db('tourist_tax_exemptions').where({ booking_id: bookingId }).first();
    expect(row.document_number_encrypted).not.toContain('000123');

    const replaced = await t.http
      .put(exemptionPath(owner, bookingId))
      .set(as(owner.accessToken))
      .send({ ...student, category: 'other_municipal', description: 'Решение совета № 12: волонтёры' })
      .expect(200);
    expect(replaced.body).toMatchObject({ category: 'other_municipal', valid_until: null });
    const read = await t.http.get(exemptionPath(owner, bookingId)).set(as(owner.accessToken)).expect(200);
    expect(read.body.description).toBe('Решение совета № 12: волонтёры');

    await t.http.delete(exemptionPath(owner, bookingId)).set(as(receptionist.accessToken)).expect(204);
    await t.http.get(exemptionPath(owner, bookingId)).set(as(owner.accessToken)).expect(404);
    await t.http.delete(exemptionPath(owner, bookingId)).set(as(owner.accessToken)).expect(404);
  });

  it('refuses a municipal category without its description, a document valid before its date, and bad codes', async () => {
    const bookingId = await stay(owner, { status: 'confirmed' });
    const put = (body: Record<string, unknown>) =>
      t.http.put(exemptionPath(owner, bookingId)).set(as(owner.accessToken)).send(body);
    await put({ ...student, category: 'other_municipal' }).expect(400);
    await put({ ...student, valid_until: '2025-08-31' }).expect(400);
    await put({ ...student, category: 'pensioner' }).expect(400);
    await put({ ...student, document_number: 'x'.repeat(51) }).expect(400);
    await t.http.get(exemptionPath(owner, bookingId)).set(as(owner.accessToken)).expect(404);
  });

  it("another hotel's booking is not found, and its staff get nothing of this one", async () => {
    const bookingId = await stay(owner, { status: 'confirmed' });
    await t.http.put(exemptionPath(owner, bookingId)).set(as(owner.accessToken)).send(student).expect(200);
    await t.http.put(exemptionPath(other, bookingId)).set(as(other.accessToken)).send(student).expect(404);
    await t.http.get(exemptionPath(other, bookingId)).set(as(other.accessToken)).expect(404);
    await t.http.delete(exemptionPath(other, bookingId)).set(as(other.accessToken)).expect(404);
    await t.http.get(exemptionPath(owner, bookingId)).set(as(owner.accessToken)).expect(200);
  });

  it('key rotation re-encrypts the document under the new key; an unknown key stops it', async () => {
    const hotel = await registerHotel(t);
    const bookingId = await stay(hotel, { status: 'confirmed' });
    await t.http.put(exemptionPath(hotel, bookingId)).set(as(hotel.accessToken)).send(student).expect(200);
    const k2 = Buffer.alloc(32, 7).toString('base64');
    const rotated = testConfig({
      ENCRYPTION_KEYS: `${TEST_APP_ENV.ENCRYPTION_KEYS},k2:${k2}`,
      ENCRYPTION_KEY_ID: 'k2',
    });
    const onlyK2 = testConfig({ ENCRYPTION_KEYS: `k2:${k2}` });
    const scope = { hotelId: hotel.hotelId };
    await expect(reencryptExemptionDocuments(t.db, onlyK2.encryption, 10, scope)).rejects.toThrow(/not configured/);
    expect(await reencryptExemptionDocuments(t.db, rotated.encryption, 1, scope)).toEqual({ reencrypted: 1 });
    expect(await reencryptExemptionDocuments(t.db, rotated.encryption, 1, scope)).toEqual({ reencrypted: 0 });
    const app = createTestApp({ ENCRYPTION_KEYS: `k2:${k2}` });
    try {
      const read = await app.http.get(exemptionPath(hotel, bookingId)).set(as(hotel.accessToken)).expect(200);
      expect(read.body.document_number).toBe(student.document_number);
    } finally {
      await app.close();
    }
  });
});

describe('the monthly report', () => {
  /** The reports of the months the last two nights fall in, added up. */
  async function lastTwoNights(hotel: RegisteredHotel) {
    const months = [...new Set([localDay(-2).slice(0, 7), localDay(-1).slice(0, 7)])];
    const reports = await Promise.all(
      months.map(
        async (month) =>
          (await t.http.get(api(hotel, '/tourist-tax/report')).set(as(hotel.accessToken)).query({ month }).expect(200))
            .body,
      ),
    );
    const sum = (field: string) => reports.reduce((total, report) => total + Number(report[field]), 0);
    const exempt = reports.flatMap((report) => report.exempt_by_category);
    return {
      base: sum('base'),
      tax: sum('tax'),
      taxable: sum('taxable_nights'),
      exempt: sum('exempt_nights'),
      students: exempt.filter((entry) => entry.category === 'student').reduce((n, entry) => n + entry.nights, 0),
      studentBase: exempt.reduce((n, entry) => n + Number(entry.base), 0),
    };
  }

  it('gives the base without VAT, the tax with its minimum, and the exempt nights by category, of stays only', async () => {
    const hotel = await registerHotel(t);
    await patchSettings(hotel, { enabled: true, rate: '1', vat_rate: '20' }).expect(200);
    await stay(hotel, { price: '12000.00' }); // 5000 a night without VAT: 50 roubles, so the minimum of 100
    const exempt = await stay(hotel, { price: '48000.00', status: 'checked_in' });
    await t.http.put(exemptionPath(hotel, exempt)).set(as(hotel.accessToken)).send(student).expect(200);
    await stay(hotel, { status: 'confirmed' }); // never checked in: not a stay

    expect(await lastTwoNights(hotel)).toEqual({
      base: 10000,
      tax: 200,
      taxable: 2,
      exempt: 2,
      students: 2,
      studentBase: 40000,
    });

    const csv = await t.http
      .get(api(hotel, '/tourist-tax/report.csv'))
      .set(as(hotel.accessToken))
      .query({ month: localDay(-1).slice(0, 7) })
      .expect(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.text.split('\r\n')[0]).toBe('month;category;name;nights;base;tax');
    expect(csv.text).toContain(';student;');
  });

  it('is the accountant’s and management’s, for a real month', async () => {
    const receptionist = await addStaff(t, owner, 'receptionist');
    const accountant = await addStaff(t, owner, 'accountant');
    const path = api(owner, '/tourist-tax/report');
    await t.http.get(path).set(as(receptionist.accessToken)).query({ month: '2026-01' }).expect(403);
    await t.http.get(path).set(as(accountant.accessToken)).query({ month: '2026-01' }).expect(200);
    await t.http.get(path).set(as(owner.accessToken)).query({ month: '2026-13' }).expect(400);
  });
});

describe('the tax shown to the guest as a separate amount', () => {
  /** A hotel charging 1 % whose widget sells one category at 15000 a night (150 roubles of tax a night). */
  async function taxedHotel() {
    const hotel = await registerHotel(t);
    const category = await createCategory(t, hotel, { base_price: 15000 });
    await createRoom(t, hotel, category.id);
    await patchSettings(hotel, { enabled: true, rate: '1' }).expect(200);
    return { hotel, category };
  }
  const stayDates = { check_in: localDay(10), check_out: localDay(12) };

  it('in the quote, night by night, beside an unchanged total; nothing with the tax off', async () => {
    const { hotel, category } = await taxedHotel();
    const quote = (query: Record<string, unknown>) =>
      t.http
        .get(api(hotel, '/quote'))
        .set(as(hotel.accessToken))
        .query({ category_id: category.id, ...query });
    const { body } = await quote({ ...stayDates, discount: '10' }).expect(200);
    expect(body.total).toBe('27000.00');
    expect(body.tourist_tax).toEqual({
      per_night: [
        { date: localDay(10), base: '13500.00', rate: '1.00', tax: '135.00', exempt: null, minimum: false },
        { date: localDay(11), base: '13500.00', rate: '1.00', tax: '135.00', exempt: null, minimum: false },
      ],
      total: '270.00',
    });
    await patchSettings(hotel, { enabled: false }).expect(200);
    expect((await quote(stayDates).expect(200)).body.tourist_tax).toEqual({ per_night: [], total: '0.00' });
  });

  it("in the widget's offers, its booking answer and the guest's e-mail", async () => {
    const { hotel, category } = await taxedHotel();
    const offers = await t.http
      .get(`/api/widget/${hotel.slug}/availability`)
      .query({ from: stayDates.check_in, to: stayDates.check_out, guests: 1 })
      .expect(200);
    expect(offers.body.categories).toEqual([
      expect.objectContaining({ total: '30000.00', tourist_tax: expect.objectContaining({ total: '300.00' }) }),
    ]);

    const email = uniqueEmail('tax-guest');
    const booked = await t.http
      .post(`/api/widget/${hotel.slug}/bookings`)
      .send({
        category_id: category.id,
        ...stayDates,
        guests_count: 1,
        guest_last_name: 'Орлова',
        guest_first_name: 'Вера',
        guest_phone: `+7999${String(Date.now()).slice(-7)}`,
        guest_email: email,
      })
      .expect(201);
    expect(booked.body.booking).toMatchObject({ price: '30000.00', tourist_tax: { total: '300.00' } });
    const [message] = await waitForMessages(email);
    expect(message.text).toMatch(/Туристический налог \(оплачивается дополнительно\): 300,00/);

    // The offers are cached per inventory version: a new rate shows at once.
    await patchSettings(hotel, { rate: '0.5' }).expect(200);
    const repriced = await t.http
      .get(`/api/widget/${hotel.slug}/availability`)
      .query({ from: localDay(20), to: localDay(21), guests: 1 })
      .expect(200);
    expect(repriced.body.categories[0].tourist_tax.total).toBe('100.00');
  });
});
