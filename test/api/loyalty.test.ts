import { createTestApp, type TestApp } from '../helpers/app';
import { addStaff, as, registerHotel, type RegisteredHotel } from '../helpers/accounts';
import { localDay } from '../helpers/dates';
import { createCategory, createRoom } from '../helpers/structure';

let t: TestApp;
let owner: RegisteredHotel;

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

const ledgerOf = (hotel: RegisteredHotel, guestId: string) =>
  t.db('loyalty_entries').where({ hotel_id: hotel.hotelId, guest_id: guestId }).orderBy('created_at');

beforeAll(async () => {
  t = createTestApp();
  owner = await registerHotel(t);
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
    await configure(owner, { enabled: true, tiers: [{ name: 'Базовый', threshold: 0, earn_rate: 5 }] });
    const guestId = await guestProfile(owner);
    const bookingId = await stay(owner, guestId, { price: '12345.67' });

    const attempts = await Promise.all(
      [1, 2, 3].map(() => t.services.loyalty.accrueStayPoints(owner.hotelId, bookingId)),
    );
    expect(attempts.sort()).toEqual(['accrued', 'already_accrued', 'already_accrued']);
    expect(await t.services.loyalty.accrueStayPoints(owner.hotelId, bookingId)).toBe('already_accrued');

    const ledger = await ledgerOf(owner, guestId);
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
    expect(await t.services.loyalty.accrueStayPoints(hotel.hotelId, checkedOut)).toBe('no_programme');
    await configure(hotel, { enabled: true });
    const inHouse = await stay(hotel, guestId, { status: 'checked_in' });
    expect(await t.services.loyalty.accrueStayPoints(hotel.hotelId, inHouse)).toBe('not_eligible');
    expect(await t.services.loyalty.accrueStayPoints(owner.hotelId, checkedOut)).toBe('not_eligible');
    expect(await ledgerOf(hotel, guestId)).toHaveLength(0);
    expect(await t.services.loyalty.accrueStayPoints(hotel.hotelId, checkedOut)).toBe('accrued');
  });
});
