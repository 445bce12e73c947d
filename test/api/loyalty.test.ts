import { createTestApp, type TestApp } from '../helpers/app';
import { addStaff, as, registerHotel, type RegisteredHotel } from '../helpers/accounts';
import { localDay } from '../helpers/dates';
import { createCategory, createRoom } from '../helpers/structure';
import { outboxWorkflowsAtRest, runSchedule, withTemporal } from '../helpers/workflows';

let t: TestApp;

const api = (hotel: RegisteredHotel, path: string) => `/api/hotels/${hotel.slug}${path}`;
const settingsPath = (hotel: RegisteredHotel) => api(hotel, '/loyalty/settings');

async function configure(hotel: RegisteredHotel, changes: Record<string, unknown>) {
  const answer = await t.http.patch(settingsPath(hotel)).set(as(hotel.accessToken)).send(changes).expect(200);
  return answer.body;
}

async function guestProfile(hotel: RegisteredHotel, lastName = 'Лоялов') {
  const created = await t.http
    .post(api(hotel, '/guests'))
    .set(as(hotel.accessToken))
    .send({ last_name: lastName, first_name: 'Гость' })
    .expect(201);
  return created.body.id as string;
}

interface StayOptions {
  nights?: number;
  price?: string;
  status?: 'confirmed' | 'checked_in' | 'checked_out';
}

/** A stay of the guest ending today (checked out by default), at a set price. */
async function stay(hotel: RegisteredHotel, guestId: string, options: StayOptions = {}) {
  const { nights = 2, price = '10000.00', status = 'checked_out' } = options;
  const category = await createCategory(t, hotel);
  const room = await createRoom(t, hotel, category.id);
  const booked = await t.http
    .post(api(hotel, '/bookings'))
    .set(as(hotel.accessToken))
    .send({
      room_id: room.id,
      check_in: localDay(-nights),
      check_out: localDay(0),
      guest_last_name: 'Лоялов',
      guest_first_name: 'Гость',
      guest_id: guestId,
      price,
    })
    .expect(201);
  const move = (to: string) =>
    t.http
      .patch(api(hotel, `/bookings/${booked.body.id}`))
      .set(as(hotel.accessToken))
      .send({ status: to })
      .expect(200);
  if (status !== 'confirmed') await move('checked_in');
  if (status === 'checked_out') await move('checked_out');
  return booked.body.id as string;
}

const accountPath = (hotel: RegisteredHotel, guestId: string) => api(hotel, `/guests/${guestId}/loyalty`);

async function account(hotel: RegisteredHotel, guestId: string) {
  return (await t.http.get(accountPath(hotel, guestId)).set(as(hotel.accessToken)).expect(200)).body;
}

async function entries(hotel: RegisteredHotel, guestId: string) {
  return (
    await t.http
      .get(`${accountPath(hotel, guestId)}/entries`)
      .set(as(hotel.accessToken))
      .expect(200)
  ).body;
}

function adjust(hotel: RegisteredHotel, guestId: string, points: number, note = 'Компенсация за шум') {
  return t.http
    .post(`${accountPath(hotel, guestId)}/adjustments`)
    .set(as(hotel.accessToken))
    .send({ points, note });
}

function redeem(hotel: RegisteredHotel, bookingId: string, points: number, key?: string) {
  const request = t.http.post(api(hotel, `/bookings/${bookingId}/loyalty-redemptions`)).set(as(hotel.accessToken));
  if (key) request.set('Idempotency-Key', key);
  return request.send({ points });
}

async function bookingBalance(hotel: RegisteredHotel, bookingId: string) {
  return (
    await t.http
      .get(api(hotel, `/bookings/${bookingId}`))
      .set(as(hotel.accessToken))
      .expect(200)
  ).body.balance;
}

/** A hotel running its programme: 1.00 a point, a base tier earning 5 per 100 and one from 3 nights earning 10. */
async function programmeHotel() {
  const hotel = await registerHotel(t);
  await configure(hotel, {
    enabled: true,
    tiers: [
      { name: 'Базовый', threshold: 0, earn_rate: 5 },
      { name: 'Серебро', threshold: 3, earn_rate: 10 },
    ],
  });
  return hotel;
}

/** The booking's workflow has had every status change and done what follows it (its own accrual attempt included). */
const bookingWorkflowDone = (bookingId: string) =>
  withTemporal((client) =>
    outboxWorkflowsAtRest(t.db, client, (outbox) => outbox.where({ workflow_id: `booking:${bookingId}` }), {
      what: `the workflow of booking ${bookingId}`,
    }),
  );

/** The stay's points credited now, whether by this call or by the booking workflow's before it. */
async function credited(hotel: RegisteredHotel, bookingId: string) {
  expect(['accrued', 'already_accrued']).toContain(await t.services.loyalty.accrueStayPoints(hotel.hotelId, bookingId));
}

const ledgerOf = (hotel: RegisteredHotel, guestId: string) =>
  t.db('loyalty_entries').where({ hotel_id: hotel.hotelId, guest_id: guestId }).orderBy('created_at');

beforeAll(() => {
  t = createTestApp();
});

afterAll(() => t.close());

describe('loyalty programme settings', () => {
  it('is off by default with one base tier, and a manager turns it on under If-Match', async () => {
    const hotel = await registerHotel(t);
    const read = await t.http.get(settingsPath(hotel)).set(as(hotel.accessToken)).expect(200);
    expect(read.body).toMatchObject({
      enabled: false,
      tier_basis: 'nights',
      point_value: '1.00',
      expiry_months: 24,
      tiers: [{ name: 'Базовый', threshold: '0.00', earn_rate: '5.00' }],
    });
    const changed = await t.http
      .patch(settingsPath(hotel))
      .set(as(hotel.accessToken))
      .set('If-Match', read.headers.etag)
      .send({ enabled: true, point_value: 0.5, expiry_months: null })
      .expect(200);
    expect(changed.body).toMatchObject({ enabled: true, point_value: '0.50', expiry_months: null });
    await t.http
      .patch(settingsPath(hotel))
      .set(as(hotel.accessToken))
      .set('If-Match', read.headers.etag)
      .send({ enabled: false })
      .expect(412);
  });

  it('replaces the tiers as a list within its bounds, and a receptionist only reads', async () => {
    const hotel = await registerHotel(t);
    const tiers = [
      { name: 'Золото', threshold: 10, earn_rate: 10 },
      { name: 'Базовый', threshold: 0, earn_rate: 5 },
    ];
    const changed = await configure(hotel, { tiers });
    expect(changed.tiers.map((tier: { name: string }) => tier.name)).toEqual(['Базовый', 'Золото']);

    const refusals = [
      [{ name: 'Серебро', threshold: 5, earn_rate: 1 }],
      [...tiers, { name: 'Ещё', threshold: 10, earn_rate: 1 }],
      [...tiers, { name: 'Половина', threshold: 2.5, earn_rate: 1 }],
    ];
    for (const list of refusals) {
      const refused = await t.http
        .patch(settingsPath(hotel))
        .set(as(hotel.accessToken))
        .send({ tiers: list })
        .expect(422);
      expect(refused.body.code).toBe('loyalty_tiers_invalid');
    }
    const tooMany = Array.from({ length: 11 }, (_, i) => ({ name: `T${i}`, threshold: i, earn_rate: 1 }));
    await t.http.patch(settingsPath(hotel)).set(as(hotel.accessToken)).send({ tiers: tooMany }).expect(400);
    // Spend thresholds may be money; switching back to nights with such a list is refused.
    await configure(hotel, {
      tier_basis: 'spend',
      tiers: [...tiers, { name: 'Полушаг', threshold: 2.5, earn_rate: 7 }],
    });
    await t.http.patch(settingsPath(hotel)).set(as(hotel.accessToken)).send({ tier_basis: 'nights' }).expect(422);

    const receptionist = await addStaff(t, hotel, 'receptionist');
    await t.http.get(settingsPath(hotel)).set(as(receptionist.accessToken)).expect(200);
    await t.http.patch(settingsPath(hotel)).set(as(receptionist.accessToken)).send({ enabled: true }).expect(403);
  });
});

describe('accrual', () => {
  it('credits a checked-out stay once however often it is asked, at the tier rate on what the stay cost', async () => {
    const hotel = await programmeHotel();
    const guestId = await guestProfile(hotel);
    const bookingId = await stay(hotel, guestId, { price: '12345.67' });

    // The booking workflow asks too once the stay is checked out: one of all the askers writes the row.
    const attempts = await Promise.all(
      [1, 2, 3].map(() => t.services.loyalty.accrueStayPoints(hotel.hotelId, bookingId)),
    );
    expect(attempts.filter((result) => result === 'accrued').length).toBeLessThanOrEqual(1);
    expect(attempts.every((result) => ['accrued', 'already_accrued'].includes(result))).toBe(true);
    expect(await t.services.loyalty.accrueStayPoints(hotel.hotelId, bookingId)).toBe('already_accrued');

    const ledger = await ledgerOf(hotel, guestId);
    expect(ledger).toHaveLength(1);
    // 5 points per 100 of 12345.67, rounded down.
    expect(ledger[0]).toMatchObject({
      reason: 'stay',
      points: 617,
      booking_id: bookingId,
      stay_nights: 2,
      tier: 'Базовый',
    });
  });

  it('credits nothing before check-out, without a programme or for another hotel', async () => {
    const hotel = await registerHotel(t);
    const guestId = await guestProfile(hotel);
    const checkedOut = await stay(hotel, guestId);
    // The booking workflow's own attempt is over (it found no programme) before the programme is turned on.
    await bookingWorkflowDone(checkedOut);
    expect(await t.services.loyalty.accrueStayPoints(hotel.hotelId, checkedOut)).toBe('no_programme');
    await configure(hotel, { enabled: true });
    const inHouse = await stay(hotel, guestId, { status: 'checked_in' });
    expect(await t.services.loyalty.accrueStayPoints(hotel.hotelId, inHouse)).toBe('not_eligible');
    expect(await t.services.loyalty.accrueStayPoints((await programmeHotel()).hotelId, checkedOut)).toBe(
      'not_eligible',
    );
    expect(await ledgerOf(hotel, guestId)).toHaveLength(0);
    expect(await t.services.loyalty.accrueStayPoints(hotel.hotelId, checkedOut)).toBe('accrued');
    expect(await ledgerOf(hotel, guestId)).toEqual([expect.objectContaining({ booking_id: checkedOut, points: 500 })]);
  });
});

describe('tiers', () => {
  it('moves the guest up once their stays reach the threshold, and the next stay earns at the new rate', async () => {
    const hotel = await programmeHotel();
    const guestId = await guestProfile(hotel);
    const first = await stay(hotel, guestId, { nights: 2, price: '10000.00' });
    await credited(hotel, first);
    expect(await account(hotel, guestId)).toMatchObject({
      balance: 500,
      balance_value: '500.00',
      tier: { name: 'Базовый' },
      next_tier: { name: 'Серебро', threshold: '3.00' },
      qualifying: { basis: 'nights', nights: 2, spend: '10000.00', to_next_tier: 1 },
    });

    const second = await stay(hotel, guestId, { nights: 2, price: '10000.00' });
    await credited(hotel, second);
    expect(await account(hotel, guestId)).toMatchObject({
      balance: 1000,
      tier: { name: 'Серебро' },
      next_tier: null,
      qualifying: { nights: 4, to_next_tier: null },
    });
    const third = await stay(hotel, guestId, { nights: 1, price: '10000.00' });
    await credited(hotel, third);

    const ledger = await entries(hotel, guestId);
    expect(
      ledger.map((row: { booking_id: string; tier: string; points: number }) => [row.booking_id, row.tier, row.points]),
    ).toEqual([
      [third, 'Серебро', 1000],
      [second, 'Базовый', 500],
      [first, 'Базовый', 500],
    ]);
    expect((await account(hotel, guestId)).balance).toBe(2000);

    // The ledger pages like every list: newest first, the next page after the cursor.
    const firstPage = await t.http
      .get(`${accountPath(hotel, guestId)}/entries`)
      .query({ limit: 2 })
      .set(as(hotel.accessToken))
      .expect(200);
    expect(firstPage.body.map((row: { booking_id: string }) => row.booking_id)).toEqual([third, second]);
    const lastPage = await t.http
      .get(`${accountPath(hotel, guestId)}/entries`)
      .query({ limit: 2, cursor: firstPage.headers['x-next-cursor'] })
      .set(as(hotel.accessToken))
      .expect(200);
    expect(lastPage.body.map((row: { booking_id: string }) => row.booking_id)).toEqual([first]);
    expect(lastPage.headers['x-next-cursor']).toBeUndefined();
  });

  it('counts money spent when the programme is by spend', async () => {
    const hotel = await registerHotel(t);
    await configure(hotel, {
      enabled: true,
      tier_basis: 'spend',
      tiers: [
        { name: 'Базовый', threshold: 0, earn_rate: 5 },
        { name: 'Золото', threshold: 15000.5, earn_rate: 8 },
      ],
    });
    const guestId = await guestProfile(hotel);
    await credited(hotel, await stay(hotel, guestId, { nights: 1, price: '10000.00' }));
    expect(await account(hotel, guestId)).toMatchObject({
      tier: { name: 'Базовый' },
      qualifying: { basis: 'spend', spend: '10000.00', to_next_tier: 5000.5 },
    });
    await credited(hotel, await stay(hotel, guestId, { nights: 1, price: '10000.00' }));
    await credited(hotel, await stay(hotel, guestId, { nights: 1, price: '10000.00' }));
    const standing = await account(hotel, guestId);
    expect(standing).toMatchObject({ tier: { name: 'Золото' }, qualifying: { spend: '30000.00', to_next_tier: null } });
    // 500 + 500 at the base rate, then 800 at the gold one.
    expect(standing.balance).toBe(1800);
  });
});

describe('redemption', () => {
  it('takes points off the bill of an open booking, refuses more than the balance, and replays by Idempotency-Key', async () => {
    const hotel = await programmeHotel();
    const guestId = await guestProfile(hotel);
    await adjust(hotel, guestId, 1000).expect(201);
    const bookingId = await stay(hotel, guestId, { status: 'checked_in', price: '5000.00' });
    expect(await bookingBalance(hotel, bookingId)).toBe('5000.00');

    const tooMuch = await redeem(hotel, bookingId, 1001).expect(422);
    expect(tooMuch.body).toMatchObject({
      code: 'loyalty_insufficient_points',
      error: 'Недостаточно баллов: на счёте гостя 1000',
    });

    const redeemed = await redeem(hotel, bookingId, 300, 'redeem-1').expect(201);
    expect(redeemed.body).toMatchObject({
      amount: '300.00',
      balance: 700,
      booking_balance: '4700.00',
      entry: { reason: 'redemption', points: -300, booking_id: bookingId, amount: '300.00' },
    });
    const replayed = await redeem(hotel, bookingId, 300, 'redeem-1').expect(201);
    expect(replayed.body.entry.id).toBe(redeemed.body.entry.id);

    expect(await bookingBalance(hotel, bookingId)).toBe('4700.00');
    const charges = await t.http
      .get(api(hotel, `/bookings/${bookingId}/charges`))
      .set(as(hotel.accessToken))
      .expect(200);
    expect(charges.body).toEqual([
      expect.objectContaining({ kind: 'loyalty_redemption', source_id: redeemed.body.entry.id, amount: '-300.00' }),
    ]);
    expect((await account(hotel, guestId)).balance).toBe(700);
  });

  it('lets concurrent redemptions spend no more than the balance', async () => {
    const hotel = await programmeHotel();
    const guestId = await guestProfile(hotel);
    await adjust(hotel, guestId, 1000).expect(201);
    const bookings = await Promise.all([1, 2, 3, 4, 5].map(() => stay(hotel, guestId, { status: 'confirmed' })));
    const answers = await Promise.all(bookings.map((bookingId) => redeem(hotel, bookingId, 300)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 201, 201, 422, 422]);
    expect((await account(hotel, guestId)).balance).toBe(100);
  });

  it('is refused with the programme off, and on a checked-out or cancelled booking', async () => {
    const hotel = await programmeHotel();
    const guestId = await guestProfile(hotel);
    await adjust(hotel, guestId, 1000).expect(201);
    const checkedOut = await stay(hotel, guestId);
    expect((await redeem(hotel, checkedOut, 10).expect(422)).body.code).toBe('booking_closed');
    const cancelled = await stay(hotel, guestId, { status: 'confirmed' });
    await t.http
      .patch(api(hotel, `/bookings/${cancelled}`))
      .set(as(hotel.accessToken))
      .send({ status: 'cancelled', cancel_reason: 'Передумал' })
      .expect(200);
    expect((await redeem(hotel, cancelled, 10).expect(422)).body.code).toBe('booking_closed');
    const open = await stay(hotel, guestId, { status: 'confirmed', price: '100.00' });
    expect((await redeem(hotel, open, 101).expect(422)).body.code).toBe('discount_exceeds_due');
    await configure(hotel, { enabled: false });
    expect((await redeem(hotel, open, 10).expect(422)).body.code).toBe('loyalty_programme_off');
    expect(await ledgerOf(hotel, guestId).where({ reason: 'redemption' })).toHaveLength(0);
    expect(await bookingBalance(hotel, open)).toBe('100.00');
  });
});

describe('adjustments', () => {
  it('need a note and a manager, and never take the balance below zero', async () => {
    const hotel = await programmeHotel();
    const guestId = await guestProfile(hotel);
    await t.http
      .post(`${accountPath(hotel, guestId)}/adjustments`)
      .set(as(hotel.accessToken))
      .send({ points: 10 })
      .expect(400);
    const receptionist = await addStaff(t, hotel, 'receptionist');
    await t.http
      .post(`${accountPath(hotel, guestId)}/adjustments`)
      .set(as(receptionist.accessToken))
      .send({ points: 10, note: 'Подарок' })
      .expect(403);
    const added = await adjust(hotel, guestId, 50).expect(201);
    expect(added.body).toMatchObject({
      reason: 'adjustment',
      points: 50,
      note: 'Компенсация за шум',
      created_by: hotel.userId,
    });
    expect(added.body.expires_at).not.toBeNull();
    expect((await adjust(hotel, guestId, -51).expect(422)).body.code).toBe('loyalty_insufficient_points');
    await adjust(hotel, guestId, -50).expect(201);
    expect((await account(hotel, guestId)).balance).toBe(0);
  });
});

describe('expiry', () => {
  it('writes off by the daily job what is left of earned points past their date, oldest first, once', async () => {
    const hotel = await programmeHotel();
    const guestId = await guestProfile(hotel);
    const older = (await adjust(hotel, guestId, 100, 'Старые баллы').expect(201)).body;
    const newer = (await adjust(hotel, guestId, 200, 'Новые баллы').expect(201)).body;
    const bookingId = await stay(hotel, guestId, { status: 'confirmed' });
    // Spent before the older points' date: taken from them first.
    await redeem(hotel, bookingId, 30).expect(201);
    await t
      .db('loyalty_entries')
      .where({ id: older.id })
      .update({ expires_at: new Date(Date.now() - 60_000) });

    await withTemporal(async (client) => {
      await runSchedule(client, 'loyalty-expiry');
      await runSchedule(client, 'loyalty-expiry');
    });
    const expired = await ledgerOf(hotel, guestId).where({ reason: 'expiry' });
    expect(expired).toEqual([expect.objectContaining({ points: -70, expired_entry_id: older.id })]);
    const now = await account(hotel, guestId);
    expect(now.balance).toBe(200);
    expect(now.next_expiry).toMatchObject({ points: 200, expires_at: newer.expires_at });
  });

  it('shows points past their date gone from the account before the job runs, and a redemption agrees', async () => {
    const hotel = await programmeHotel();
    const guestId = await guestProfile(hotel);
    const stale = (await adjust(hotel, guestId, 500, 'Старые баллы').expect(201)).body;
    const fresh = (await adjust(hotel, guestId, 100, 'Новые баллы').expect(201)).body;
    await t
      .db('loyalty_entries')
      .where({ id: stale.id })
      .update({ expires_at: new Date(Date.now() - 60_000) });

    expect(await account(hotel, guestId)).toMatchObject({
      balance: 100,
      balance_value: '100.00',
      next_expiry: { points: 100, expires_at: fresh.expires_at },
    });
    // The account wrote the expiry row itself, once: the balance is still the sum of the ledger.
    await account(hotel, guestId);
    const ledger = await ledgerOf(hotel, guestId);
    expect(ledger.filter((row) => row.reason === 'expiry')).toEqual([
      expect.objectContaining({ points: -500, expired_entry_id: stale.id }),
    ]);
    expect(ledger.reduce((sum, row) => sum + row.points, 0)).toBe(100);

    const bookingId = await stay(hotel, guestId, { status: 'confirmed' });
    expect((await redeem(hotel, bookingId, 500).expect(422)).body.error).toBe(
      'Недостаточно баллов: на счёте гостя 100',
    );
    expect((await redeem(hotel, bookingId, 100).expect(201)).body.balance).toBe(0);
    expect(await account(hotel, guestId)).toMatchObject({ balance: 0, next_expiry: null });
    await withTemporal((client) => runSchedule(client, 'loyalty-expiry'));
    expect(await ledgerOf(hotel, guestId).where({ reason: 'expiry' })).toHaveLength(1);
  });

  it('settles expired points before a redemption spends them', async () => {
    const hotel = await programmeHotel();
    const guestId = await guestProfile(hotel);
    const stale = (await adjust(hotel, guestId, 100, 'Старые баллы').expect(201)).body;
    await adjust(hotel, guestId, 50, 'Новые баллы').expect(201);
    await t
      .db('loyalty_entries')
      .where({ id: stale.id })
      .update({ expires_at: new Date(Date.now() - 60_000) });
    const bookingId = await stay(hotel, guestId, { status: 'confirmed' });
    expect((await redeem(hotel, bookingId, 51).expect(422)).body.error).toBe('Недостаточно баллов: на счёте гостя 50');
    await redeem(hotel, bookingId, 50).expect(201);
    const rows = (await entries(hotel, guestId)).map((row: { reason: string; points: number }) => [
      row.reason,
      row.points,
    ]);
    expect(rows.sort()).toEqual([
      ['adjustment', 100],
      ['adjustment', 50],
      ['expiry', -100],
      ['redemption', -50],
    ]);
    expect((await account(hotel, guestId)).balance).toBe(0);
  });
});

describe('reversal of a redemption', () => {
  const reverse = (hotel: RegisteredHotel, bookingId: string, entryId: string) =>
    t.http
      .post(api(hotel, `/bookings/${bookingId}/loyalty-redemptions/${entryId}/reversal`))
      .set(as(hotel.accessToken));

  it('gives the points back once, and takes the discount off an open bill', async () => {
    const hotel = await programmeHotel();
    const guestId = await guestProfile(hotel);
    await adjust(hotel, guestId, 1000).expect(201);
    const bookingId = await stay(hotel, guestId, { status: 'confirmed', price: '5000.00' });
    const redeemed = (await redeem(hotel, bookingId, 300).expect(201)).body.entry;
    expect(redeemed.amount).toBe('300.00');
    // A point is worth more now: the discount taken back is still the one given.
    await configure(hotel, { point_value: 2 });

    const reversed = await reverse(hotel, bookingId, redeemed.id).expect(201);
    expect(reversed.body).toMatchObject({
      balance: 1000,
      booking_balance: '5000.00',
      entry: { reason: 'redemption', points: 300, reversed_entry_id: redeemed.id, booking_id: bookingId },
    });
    expect((await reverse(hotel, bookingId, redeemed.id).expect(409)).body.code).toBe('loyalty_already_reversed');
    expect(await bookingBalance(hotel, bookingId)).toBe('5000.00');
    expect((await account(hotel, guestId)).balance).toBe(1000);
    await reverse(hotel, bookingId, reversed.body.entry.id).expect(404);
    const otherBooking = await stay(hotel, guestId, { status: 'confirmed' });
    await reverse(hotel, otherBooking, redeemed.id).expect(404);
  });

  it('gives back points spent on a booking cancelled since, and none spent on a stay checked out', async () => {
    const hotel = await programmeHotel();
    const guestId = await guestProfile(hotel);
    await adjust(hotel, guestId, 1000).expect(201);
    const cancelled = await stay(hotel, guestId, { status: 'confirmed' });
    const spentOnCancelled = (await redeem(hotel, cancelled, 200).expect(201)).body.entry;
    await t.http
      .patch(api(hotel, `/bookings/${cancelled}`))
      .set(as(hotel.accessToken))
      .send({ status: 'cancelled', cancel_reason: 'Передумал' })
      .expect(200);
    await reverse(hotel, cancelled, spentOnCancelled.id).expect(201);

    const inHouse = await stay(hotel, guestId, { status: 'checked_in' });
    const spentInHouse = (await redeem(hotel, inHouse, 100).expect(201)).body.entry;
    await t.http
      .patch(api(hotel, `/bookings/${inHouse}`))
      .set(as(hotel.accessToken))
      .send({ status: 'checked_out' })
      .expect(200);
    expect((await reverse(hotel, inHouse, spentInHouse.id).expect(422)).body.code).toBe('booking_closed');
    const redemptions = await ledgerOf(hotel, guestId).where({ reason: 'redemption' });
    expect(redemptions.map((row) => row.points).sort((a, b) => a - b)).toEqual([-200, -100, 200]);
  });
});

describe('crediting a stay from the desk', () => {
  it('credits a stay checked out before the programme was on, once', async () => {
    const hotel = await registerHotel(t);
    const guestId = await guestProfile(hotel);
    const bookingId = await stay(hotel, guestId, { price: '3000.00' });
    await bookingWorkflowDone(bookingId);
    const credit = () => t.http.post(api(hotel, `/bookings/${bookingId}/loyalty-accrual`)).set(as(hotel.accessToken));
    expect((await credit().expect(200)).body).toEqual({ result: 'no_programme', entry: null });
    await configure(hotel, { enabled: true });
    expect((await credit().expect(200)).body.result).toBe('accrued');
    const again = await credit().expect(200);
    expect(again.body).toMatchObject({ result: 'already_accrued', entry: { reason: 'stay', points: 150 } });
    expect(await ledgerOf(hotel, guestId)).toHaveLength(1);

    const open = await stay(hotel, guestId, { status: 'checked_in' });
    const notYet = await t.http.post(api(hotel, `/bookings/${open}/loyalty-accrual`)).set(as(hotel.accessToken));
    expect(notYet.body).toEqual({ result: 'not_eligible', entry: null });
  });
});

describe('another hotel', () => {
  it('never reaches the programme, an account, the ledger or a booking of this one', async () => {
    const hotel = await programmeHotel();
    const intruder = await programmeHotel();
    const guestId = await guestProfile(hotel);
    await adjust(hotel, guestId, 100).expect(201);
    const bookingId = await stay(hotel, guestId, { status: 'confirmed' });

    await t.http.get(settingsPath(hotel)).set(as(intruder.accessToken)).expect(403);
    await t.http.patch(settingsPath(hotel)).set(as(intruder.accessToken)).send({ enabled: false }).expect(403);
    await t.http.get(accountPath(hotel, guestId)).set(as(intruder.accessToken)).expect(403);
    await t.http.get(accountPath(intruder, guestId)).set(as(intruder.accessToken)).expect(404);
    await t.http
      .get(`${accountPath(intruder, guestId)}/entries`)
      .set(as(intruder.accessToken))
      .expect(404);
    await adjust(intruder, guestId, 10).expect(404);
    await redeem(intruder, bookingId, 10).expect(404);
    expect(await t.services.loyalty.accrueStayPoints(intruder.hotelId, bookingId)).toBe('not_eligible');
    expect((await account(hotel, guestId)).balance).toBe(100);
    expect(await ledgerOf(intruder, guestId)).toHaveLength(0);
  });
});
