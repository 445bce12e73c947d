import { randomInt, randomUUID } from 'node:crypto';
import type { GuestRow } from '../../src/modules/guests';
import { guestsRepository } from '../../src/modules/guests/guests.repository';
import { createGuest, findGuestMatch, reencryptGuestDocuments } from '../../src/modules/guests/guests.service';
import { decryptSecret } from '../../src/platform/crypto';
import { ValidationError } from '../../src/platform/errors';
import { createTestApp, testConfig, type TestApp } from '../helpers/app';
import { addStaff, as, registerHotel, type RegisteredHotel } from '../helpers/accounts';
import { TEST_APP_ENV } from '../helpers/stack-env';
import { problem } from '../helpers/problem';

type Staff = Awaited<ReturnType<typeof addStaff>>;

let t: TestApp;
let owner: RegisteredHotel;
let other: RegisteredHotel;
let desk: Staff;
let accountant: Staff;
let manager: Staff;
beforeAll(async () => {
  t = createTestApp();
  [owner, other] = await Promise.all([registerHotel(t), registerHotel(t)]);
  [desk, accountant, manager] = await Promise.all([
    addStaff(t, owner, 'receptionist'),
    addStaff(t, owner, 'accountant'),
    addStaff(t, owner, 'manager'),
  ]);
});
afterAll(() => t.close());

const bookingView = (hotelId: string, guestId: string) =>
  t.services.guests.forBooking(t.db, hotelId, { guestId, person: { last_name: 'Любой', first_name: 'Гость' } });

/** A random Latin/Cyrillic-safe token that makes names unique within the shared hotel. */
const token = () => randomUUID().replace(/\d|-/g, '').slice(0, 8);
/** A random 10-digit subscriber number, e.g. `9991234567`. */
const subscriber = () => `9${String(randomInt(0, 1e9)).padStart(9, '0')}`;
const dayOffset = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

const passport = {
  passport_series: '4510',
  passport_number: '987654',
  passport_issued_by: 'ОВД района Арбат г. Москвы',
  passport_issue_date: '2015-06-01',
};

const guestsPath = (hotel: RegisteredHotel = owner) => `/api/hotels/${hotel.slug}/guests`;

async function createGuestVia(body: Record<string, unknown>, accessToken = desk.accessToken, hotel = owner) {
  const response = await t.http.post(guestsPath(hotel)).set(as(accessToken)).send(body).expect(201);
  return response.body as { id: string } & Record<string, unknown>;
}

async function search(query: Record<string, unknown>, accessToken = desk.accessToken): Promise<string[]> {
  const response = await t.http.get(guestsPath()).query(query).set(as(accessToken)).expect(200);
  return response.body.map((guest: { id: string }) => guest.id);
}

describe('guests: CRUD', () => {
  it('create, read, list, update, delete', async () => {
    const last = `Иванов${token()}`;
    const created = await createGuestVia({
      last_name: `  ${last} `,
      first_name: 'Иван',
      middle_name: 'Петрович',
      phone: '+7 (999) 000-11-22',
      email: 'Ivan.Ivanov@Example.TEST',
      birth_date: '1985-03-04',
      citizenship: 'RU',
      notes: 'Любит тихие номера',
    });
    expect(created).toMatchObject({
      hotel_id: owner.hotelId,
      last_name: last,
      first_name: 'Иван',
      middle_name: 'Петрович',
      phone: '+7 (999) 000-11-22',
      email: 'ivan.ivanov@example.test',
      birth_date: '1985-03-04',
      citizenship: 'RU',
      notes: 'Любит тихие номера',
      passport_on_file: false,
      passport_number: null,
      is_blacklisted: false,
      blacklist_reason: null,
      blacklisted_at: null,
      blacklisted_by: null,
    });
    for (const hidden of ['search_name', 'phone_normalized', 'passport_key_id', 'passport_number_encrypted']) {
      expect(created).not.toHaveProperty(hidden);
    }

    const read = await t.http.get(`${guestsPath()}/${created.id}`).set(as(desk.accessToken)).expect(200);
    expect(read.body).toEqual(created);
    expect(await search({ q: last })).toEqual([created.id]);

    const updated = await t.http
      .patch(`${guestsPath()}/${created.id}`)
      .set(as(desk.accessToken))
      .send({ first_name: 'Пётр', middle_name: null, phone: '', email: null, notes: '' })
      .expect(200);
    expect(updated.body).toMatchObject({ first_name: 'Пётр', middle_name: null, phone: null, email: null, notes: '' });
    expect(await search({ q: `${last} петр` })).toEqual([created.id]);

    await t.http.delete(`${guestsPath()}/${created.id}`).set(as(desk.accessToken)).expect(200);
    await t.http.get(`${guestsPath()}/${created.id}`).set(as(desk.accessToken)).expect(404);
    await t.http.delete(`${guestsPath()}/${created.id}`).set(as(desk.accessToken)).expect(404);
    await t.http.patch(`${guestsPath()}/${created.id}`).set(as(desk.accessToken)).send({ notes: 'x' }).expect(404);
  });

  it('lists by last name, then first name', async () => {
    const family = `Сорокин${token()}`;
    const b = await createGuestVia({ last_name: `${family}б`, first_name: 'Анна' });
    const a2 = await createGuestVia({ last_name: `${family}а`, first_name: 'Борис' });
    const a1 = await createGuestVia({ last_name: `${family}а`, first_name: 'Алла' });
    expect(await search({ q: family })).toEqual([a1.id, a2.id, b.id]);
  });

  it('409 when deleting a guest that bookings reference (a foreign key to guests)', async () => {
    const guest = await createGuestVia({ last_name: `Связан${token()}`, first_name: 'Гость' });
    const table = `guest_links_${token()}`;
    await t.db.schema.createTable(table, (tb) => {
      tb.uuid('hotel_id').notNullable();
      tb.uuid('guest_id').notNullable();
      tb.foreign(['hotel_id', 'guest_id']).references(['hotel_id', 'id']).inTable('guests');
    });
    try {
      await t.db(table).insert({ hotel_id: owner.hotelId, guest_id: guest.id });
      const refused = await t.http.delete(`${guestsPath()}/${guest.id}`).set(as(desk.accessToken)).expect(409);
      expect(refused.body).toEqual(problem(409, 'conflict', 'Гость указан в бронированиях: удалить его нельзя'));
      await t.http.get(`${guestsPath()}/${guest.id}`).set(as(desk.accessToken)).expect(200);
    } finally {
      await t.db.schema.dropTable(table);
    }
    await t.http.delete(`${guestsPath()}/${guest.id}`).set(as(desk.accessToken)).expect(200);
  });
});

describe('guests: search', () => {
  it('matches name parts in any case and order, and ё as е', async () => {
    const tag = token();
    const guest = await createGuestVia({ last_name: `Королёва${tag}`, first_name: 'Мария', middle_name: 'Сергеевна' });
    await createGuestVia({ last_name: `Королёва${tag}`, first_name: 'Анна' });
    expect(await search({ q: `КОРОЛЕВА${tag.toUpperCase()} мар` })).toEqual([guest.id]);
    expect(await search({ q: `мария королёва${tag}` })).toEqual([guest.id]);
    expect(await search({ q: `сергеевна ${tag}` })).toEqual([guest.id]);
    expect(await search({ q: `${tag} Ольга` })).toEqual([]);
  });

  it('matches the phone whatever its formatting', async () => {
    const number = subscriber();
    const formatted = `+7 (${number.slice(0, 3)}) ${number.slice(3, 6)}-${number.slice(6, 8)}-${number.slice(8)}`;
    const guest = await createGuestVia({ last_name: `Телефонов${token()}`, first_name: 'Иван', phone: formatted });
    expect(await search({ q: `7${number}` })).toEqual([guest.id]);
    expect(await search({ q: formatted })).toEqual([guest.id]);
    expect(await search({ q: `${number.slice(0, 3)} ${number.slice(3, 6)}.${number.slice(6)}` })).toEqual([guest.id]);
    expect(await search({ q: number.slice(4) })).toEqual([guest.id]);
    // The domestic 8 prefix is the same number.
    expect(await search({ q: `8 (${number.slice(0, 3)}) ${number.slice(3)}` })).toEqual([guest.id]);

    const plain = await createGuestVia({
      last_name: `Цифров${token()}`,
      first_name: 'Олег',
      phone: `7${subscriber()}`,
    });
    const plainDigits = (await guestsRepository.find(t.db, owner.hotelId, plain.id))!.phone_normalized!.slice(1);
    const asFormatted = `+${plainDigits[0]} (${plainDigits.slice(1, 4)}) ${plainDigits.slice(4, 7)}-${plainDigits.slice(7)}`;
    expect(await search({ q: asFormatted })).toEqual([plain.id]);

    // Text that is no phone number is never matched, but staff still find it by its digits.
    const odd = `${randomInt(10, 99)}-${randomInt(100, 999)}`;
    const unparsed = await createGuestVia({ last_name: `Странный${token()}`, first_name: 'Ян', phone: odd });
    expect(await search({ q: odd.replace('-', '') })).toContain(unparsed.id);
    // A number typed with digits too many has no normal form: the whole number typed any way still finds it.
    const longer = subscriber();
    const extra = await createGuestVia({ last_name: `Лишний${token()}`, first_name: 'Ян', phone: `8 ${longer} 44` });
    expect(await search({ q: `+7 ${longer}` })).toEqual([extra.id]);
  });

  it('matches the e-mail in any case', async () => {
    const local = `anna.${token()}`;
    const guest = await createGuestVia({ last_name: 'Смит', first_name: 'Анна', email: `${local}@Example.TEST` });
    expect(guest.email).toBe(`${local}@example.test`);
    expect(await search({ q: `${local.toUpperCase()}@EXAMPLE.test` })).toEqual([guest.id]);
    expect(await search({ q: local.toUpperCase() })).toEqual([guest.id]);
  });

  it('filters by blacklisted; LIKE wildcards are literal', async () => {
    const tag = token();
    const listed = await createGuestVia({ last_name: `Чёрный${tag}`, first_name: 'Иван' });
    const clean = await createGuestVia({ last_name: `Чёрный${tag}`, first_name: 'Пётр' });
    await t.http
      .post(`${guestsPath()}/${listed.id}/blacklist`)
      .set(as(manager.accessToken))
      .send({ is_blacklisted: true, reason: 'Порча имущества' })
      .expect(200);
    expect(await search({ q: tag, blacklisted: true })).toEqual([listed.id]);
    expect(await search({ q: tag, blacklisted: false })).toEqual([clean.id]);
    expect(await search({ q: `${tag} %` })).toEqual([]);
    expect(await search({ q: '_' })).toEqual([]);
  });
});

describe('guests: passport data', () => {
  it('round-trips for the desk, is hidden from an accountant, and is never stored in clear', async () => {
    const created = await createGuestVia({ last_name: `Паспортов${token()}`, first_name: 'Иван', ...passport });
    expect(created).toMatchObject({ ...passport, passport_on_file: true });
    const read = await t.http.get(`${guestsPath()}/${created.id}`).set(as(desk.accessToken)).expect(200);
    expect(read.body).toMatchObject({ ...passport, passport_on_file: true });

    const hidden = {
      passport_series: null,
      passport_number: null,
      passport_issued_by: null,
      passport_issue_date: null,
      passport_on_file: true,
    };
    const byAccountant = await t.http.get(`${guestsPath()}/${created.id}`).set(as(accountant.accessToken)).expect(200);
    expect(byAccountant.body).toMatchObject({ ...hidden, last_name: created.last_name });
    const listed = await t.http
      .get(guestsPath())
      .query({ q: created.last_name })
      .set(as(accountant.accessToken))
      .expect(200);
    expect(listed.body).toEqual([expect.objectContaining(hidden)]);

    const row = await t.db('guests').where({ id: created.id }).first();
    for (const [column, value] of Object.entries(row)) {
      const text = value instanceof Date ? value.toISOString() : String(value);
      for (const secret of [passport.passport_number, passport.passport_issued_by, passport.passport_issue_date]) {
        expect({ column, contains: text.includes(secret) }).toEqual({ column, contains: false });
      }
    }
    expect(row.passport_key_id).toBe('test1');
    expect(row.passport_number_encrypted).toMatch(/^v1\.test1\./);
    expect(decryptSecret(row.passport_number_encrypted, t.config.encryption)).toBe(passport.passport_number);
  });

  it('a partial update keeps the other fields; null erases; no passport means passport_on_file false', async () => {
    const created = await createGuestVia({ last_name: `Частичный${token()}`, first_name: 'Иван', ...passport });
    const changed = await t.http
      .patch(`${guestsPath()}/${created.id}`)
      .set(as(desk.accessToken))
      .send({ passport_number: '111222', passport_issued_by: null })
      .expect(200);
    expect(changed.body).toMatchObject({ ...passport, passport_number: '111222', passport_issued_by: null });
    const cleared = await t.http
      .patch(`${guestsPath()}/${created.id}`)
      .set(as(desk.accessToken))
      .send({ passport_series: '', passport_number: null, passport_issue_date: null })
      .expect(200);
    expect(cleared.body).toMatchObject({ passport_on_file: false, passport_series: null, passport_number: null });
    const row = await t.db('guests').where({ id: created.id }).first();
    expect(row).toMatchObject({ passport_key_id: null, passport_series_encrypted: null });
  });
});

describe('guests: blacklist', () => {
  it('only hotel_admin and manager blacklist; the reason, who and when are recorded; lifting clears them', async () => {
    const guest = await createGuestVia({ last_name: `Нарушитель${token()}`, first_name: 'Иван' });
    const path = `${guestsPath()}/${guest.id}/blacklist`;
    await t.http.post(path).set(as(desk.accessToken)).send({ is_blacklisted: true, reason: 'Шум' }).expect(403);
    await t.http.post(path).set(as(accountant.accessToken)).send({ is_blacklisted: true, reason: 'Шум' }).expect(403);
    const noReason = await t.http.post(path).set(as(manager.accessToken)).send({ is_blacklisted: true }).expect(400);
    expect(noReason.body.details.map((d: { path: string }) => d.path)).toEqual(['body.reason']);
    await t.http.post(path).set(as(manager.accessToken)).send({ is_blacklisted: true, reason: '  ' }).expect(400);

    const before = Date.now();
    const listed = await t.http
      .post(path)
      .set(as(manager.accessToken))
      .send({ is_blacklisted: true, reason: 'Не оплатил проживание' })
      .expect(200);
    expect(listed.body).toMatchObject({
      is_blacklisted: true,
      blacklist_reason: 'Не оплатил проживание',
      blacklisted_by: manager.id,
    });
    const at = new Date(listed.body.blacklisted_at).getTime();
    expect(at).toBeGreaterThan(before - 60_000);
    expect(at).toBeLessThan(Date.now() + 60_000);
    // What a booking of this guest sees (and another hotel does not know the guest at all).
    expect(await bookingView(owner.hotelId, guest.id)).toEqual({ id: guest.id, blacklisted: true });
    expect(await bookingView(other.hotelId, guest.id)).toBeUndefined();

    const byOwner = await t.http
      .post(path)
      .set(as(owner.accessToken))
      .send({ is_blacklisted: true, reason: 'Повторно' })
      .expect(200);
    expect(byOwner.body).toMatchObject({ blacklist_reason: 'Повторно', blacklisted_by: owner.userId });

    const lifted = await t.http.post(path).set(as(owner.accessToken)).send({ is_blacklisted: false }).expect(200);
    expect(lifted.body).toMatchObject({
      is_blacklisted: false,
      blacklist_reason: null,
      blacklisted_at: null,
      blacklisted_by: null,
    });
    expect(await bookingView(owner.hotelId, guest.id)).toEqual({ id: guest.id, blacklisted: false });
  });

  it('is_blacklisted cannot be set by create or update', async () => {
    const guest = await createGuestVia({ last_name: `Хитрый${token()}`, first_name: 'Иван' });
    const patched = await t.http
      .patch(`${guestsPath()}/${guest.id}`)
      .set(as(manager.accessToken))
      .send({ is_blacklisted: true })
      .expect(400);
    expect(patched.body.details).toEqual([
      {
        path: 'body.is_blacklisted',
        message: '"is_blacklisted" is set with POST /api/hotels/{slug}/guests/{id}/blacklist (hotel_admin, manager)',
      },
    ]);
    await t.http
      .post(guestsPath())
      .set(as(manager.accessToken))
      .send({ last_name: 'А', first_name: 'Б', is_blacklisted: true })
      .expect(400);
  });
});

describe('guests: validation and roles', () => {
  const valid = { last_name: 'Петров', first_name: 'Пётр' };
  it.each([
    [{ first_name: 'Пётр' }, 'body.last_name'],
    [{ ...valid, first_name: '' }, 'body.first_name'],
    [{ ...valid, last_name: 'x'.repeat(101) }, 'body.last_name'],
    [{ ...valid, middle_name: 'x'.repeat(101) }, 'body.middle_name'],
    [{ ...valid, phone: '1234' }, 'body.phone'],
    [{ ...valid, phone: '1'.repeat(31) }, 'body.phone'],
    [{ ...valid, phone: 'call me maybe' }, 'body.phone'],
    [{ ...valid, phone: '+(--) ..' }, 'body.phone'],
    [{ ...valid, email: 'not-an-email' }, 'body.email'],
    [{ ...valid, birth_date: dayOffset(3) }, 'body.birth_date'],
    [{ ...valid, birth_date: '1990-02-30' }, 'body.birth_date'],
    [{ ...valid, birth_date: '03.04.1985' }, 'body.birth_date'],
    [{ ...valid, passport_issue_date: dayOffset(3) }, 'body.passport_issue_date'],
    [{ ...valid, passport_issue_date: '2015-13-01' }, 'body.passport_issue_date'],
    [{ ...valid, passport_number: 'x'.repeat(31) }, 'body.passport_number'],
  ])('400 for %j', async (body, path) => {
    const response = await t.http.post(guestsPath()).set(as(desk.accessToken)).send(body).expect(400);
    expect(response.body.details.map((d: { path: string }) => d.path)).toContain(path);
  });

  it('accepts today as the passport issue date; 400 for an empty update and a bad id', async () => {
    const guest = await createGuestVia({ ...valid, passport_issue_date: dayOffset(0), birth_date: dayOffset(-1) });
    expect(guest).toMatchObject({ passport_issue_date: dayOffset(0), birth_date: dayOffset(-1) });
    await t.http.patch(`${guestsPath()}/${guest.id}`).set(as(desk.accessToken)).send({}).expect(400);
    await t.http.get(`${guestsPath()}/not-a-uuid`).set(as(desk.accessToken)).expect(400);
  });

  it('housekeeping and maintenance cannot read; accountant and security read only', async () => {
    const [maid, technician, security] = await Promise.all([
      addStaff(t, owner, 'housekeeper'),
      addStaff(t, owner, 'technician'),
      addStaff(t, owner, 'security'),
    ]);
    const guest = await createGuestVia({ last_name: `Роли${token()}`, first_name: 'Иван', ...passport });
    for (const member of [maid, technician]) {
      await t.http.get(guestsPath()).set(as(member.accessToken)).expect(403);
      await t.http.get(`${guestsPath()}/${guest.id}`).set(as(member.accessToken)).expect(403);
    }
    for (const member of [accountant, security]) {
      const read = await t.http.get(`${guestsPath()}/${guest.id}`).set(as(member.accessToken)).expect(200);
      expect(read.body).toMatchObject({ passport_number: null, passport_on_file: true });
      await t.http.post(guestsPath()).set(as(member.accessToken)).send(valid).expect(403);
      await t.http.patch(`${guestsPath()}/${guest.id}`).set(as(member.accessToken)).send({ notes: 'x' }).expect(403);
      await t.http.delete(`${guestsPath()}/${guest.id}`).set(as(member.accessToken)).expect(403);
    }
    const byManager = await t.http.get(`${guestsPath()}/${guest.id}`).set(as(manager.accessToken)).expect(200);
    expect(byManager.body).toMatchObject(passport);
    await t.http.get(guestsPath()).expect(401);
  });

  it('another hotel: 403 on our slug, 404 for our guests through its own', async () => {
    const guest = await createGuestVia({ last_name: `Чужой${token()}`, first_name: 'Иван', ...passport });
    await t.http.get(guestsPath()).set(as(other.accessToken)).expect(403);
    await t.http.get(`${guestsPath()}/${guest.id}`).set(as(other.accessToken)).expect(403);
    await t.http.post(guestsPath()).set(as(other.accessToken)).send(valid).expect(403);
    const theirs = `${guestsPath(other)}/${guest.id}`;
    await t.http.get(theirs).set(as(other.accessToken)).expect(404);
    await t.http.patch(theirs).set(as(other.accessToken)).send({ notes: 'x' }).expect(404);
    await t.http.delete(theirs).set(as(other.accessToken)).expect(404);
    await t.http
      .post(`${theirs}/blacklist`)
      .set(as(other.accessToken))
      .send({ is_blacklisted: true, reason: 'x' })
      .expect(404);
    const theirList = await t.http
      .get(guestsPath(other))
      .query({ q: guest.last_name as string })
      .set(as(other.accessToken))
      .expect(200);
    expect(theirList.body).toEqual([]);
    await t.http.get(`${guestsPath()}/${guest.id}`).set(as(desk.accessToken)).expect(200);
  });
});

describe('guests: functions for bookings', () => {
  it('createGuest validates and encrypts; findGuestMatch matches phone or e-mail with the last name', async () => {
    const number = subscriber();
    const last = `Матчев${token()}`;
    const email = `match.${token()}@Mail.TEST`;
    const created = await createGuest(
      t.db,
      owner.hotelId,
      { last_name: last, first_name: 'Иван', phone: `+7 ${number}`, email, ...passport },
      t.config.encryption,
    );
    expect(created).toMatchObject({
      hotel_id: owner.hotelId,
      phone_normalized: `+7${number}`,
      passport_key_id: 'test1',
    });
    await expect(
      createGuest(t.db, owner.hotelId, { last_name: '', first_name: 'Иван' }, t.config.encryption),
    ).rejects.toBeInstanceOf(ValidationError);

    const match = (criteria: Parameters<typeof findGuestMatch>[2], hotelId = owner.hotelId) =>
      findGuestMatch(t.db, hotelId, criteria).then((row?: GuestRow) => row?.id);
    const phone = `+7 (${number.slice(0, 3)}) ${number.slice(3)}`;
    expect(await match({ phone, last_name: last.toUpperCase(), first_name: 'Другое' })).toBe(created.id);
    expect(await match({ email: email.toUpperCase(), last_name: last, first_name: 'Иван' })).toBe(created.id);
    expect(await match({ phone, last_name: 'Другой', first_name: 'Иван' })).toBeUndefined();
    expect(await match({ last_name: last, first_name: 'Иван' })).toBeUndefined();
    expect(await match({ phone: `7${subscriber()}`, last_name: last, first_name: 'Иван' })).toBeUndefined();
    expect(await match({ phone, last_name: last, first_name: 'Иван' }, other.hotelId)).toBeUndefined();

    // Several candidates: the one with the same first name wins.
    const namesake = await createGuest(
      t.db,
      owner.hotelId,
      { last_name: last, first_name: 'Пётр', phone: `7${number}` },
      t.config.encryption,
    );
    expect(await match({ phone, last_name: last, first_name: 'Петр' })).toBe(namesake.id);
    expect(await match({ phone, last_name: last, first_name: 'Иван' })).toBe(created.id);
  });
});

describe('guests: key rotation', () => {
  const k2 = Buffer.alloc(32, 2).toString('base64');

  it('re-encrypts every guest under an old key with the current one, in batches, idempotently', async () => {
    const hotel = await registerHotel(t);
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const guest = await createGuestVia(
        { last_name: `Ротация${i}`, first_name: 'Иван', ...passport, passport_number: `55500${i}` },
        hotel.accessToken,
        hotel,
      );
      ids.push(guest.id);
    }
    const bare = await createGuestVia({ last_name: 'Безпаспорта', first_name: 'Иван' }, hotel.accessToken, hotel);
    const rowsOf = async () =>
      t.db<GuestRow>('guests').where({ hotel_id: hotel.hotelId }).orderBy('id') as Promise<GuestRow[]>;
    const before = await rowsOf();
    expect(before.filter((row) => row.passport_key_id === 'test1')).toHaveLength(3);

    const rotated = testConfig({
      ENCRYPTION_KEYS: `${TEST_APP_ENV.ENCRYPTION_KEYS},k2:${k2}`,
      ENCRYPTION_KEY_ID: 'k2',
    });
    expect(await reencryptGuestDocuments(t.db, rotated.encryption, 2, { hotelId: hotel.hotelId })).toEqual({
      reencrypted: 3,
    });

    const after = await rowsOf();
    const envelopeColumns = [
      'passport_series_encrypted',
      'passport_number_encrypted',
      'passport_issued_by_encrypted',
      'passport_issue_date_encrypted',
    ] as const;
    for (const row of after) {
      const old = before.find((b) => b.id === row.id)!;
      expect(row.updated_at).toEqual(old.updated_at);
      if (row.id === bare.id) {
        expect(row).toEqual(old);
        continue;
      }
      expect(row.passport_key_id).toBe('k2');
      for (const column of envelopeColumns) {
        expect(row[column]!.split('.')[1]).toBe('k2');
        expect(row[column]).not.toBe(old[column]);
        expect(decryptSecret(row[column]!, rotated.encryption)).toBe(decryptSecret(old[column]!, t.config.encryption));
      }
    }

    // A second run finds nothing to do.
    expect(await reencryptGuestDocuments(t.db, rotated.encryption, 2, { hotelId: hotel.hotelId })).toEqual({
      reencrypted: 0,
    });
    expect(await rowsOf()).toEqual(after);

    // The API configured with both keys reads them; a passport edit keeps the whole row under one key.
    const app = createTestApp({ ENCRYPTION_KEYS: `${TEST_APP_ENV.ENCRYPTION_KEYS},k2:${k2}`, ENCRYPTION_KEY_ID: 'k2' });
    try {
      const read = await app.http
        .get(`${guestsPath(hotel)}/${ids[1]}`)
        .set(as(hotel.accessToken))
        .expect(200);
      expect(read.body).toMatchObject({ ...passport, passport_number: '555001' });

      const legacy = await createGuestVia(
        { last_name: 'Старый', first_name: 'Ключ', ...passport },
        hotel.accessToken,
        hotel,
      );
      await app.http
        .patch(`${guestsPath(hotel)}/${legacy.id}`)
        .set(as(hotel.accessToken))
        .send({ passport_number: '777888' })
        .expect(200);
      const row = (await guestsRepository.find(t.db, hotel.hotelId, legacy.id))!;
      expect(row.passport_key_id).toBe('k2');
      for (const column of envelopeColumns) expect(row[column]!.split('.')[1]).toBe('k2');
      const reread = await app.http
        .get(`${guestsPath(hotel)}/${legacy.id}`)
        .set(as(hotel.accessToken))
        .expect(200);
      expect(reread.body).toMatchObject({ ...passport, passport_number: '777888' });
    } finally {
      await app.close();
    }
  });

  it('stops with a clear error when a row uses a key that is not configured', async () => {
    const hotel = await registerHotel(t);
    await createGuestVia({ last_name: 'Неизвестный', first_name: 'Ключ', ...passport }, hotel.accessToken, hotel);
    const onlyK2 = testConfig({ ENCRYPTION_KEYS: `k2:${k2}` });
    await expect(reencryptGuestDocuments(t.db, onlyK2.encryption, 10, { hotelId: hotel.hotelId })).rejects.toThrow(
      /encrypted with key "test1", which is not configured/,
    );
  });
});
