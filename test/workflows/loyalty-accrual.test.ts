import { Client, Connection } from '@temporalio/client';
import { as, registerHotel, type RegisteredHotel } from '../helpers/accounts';
import { createTestApp, type TestApp } from '../helpers/app';
import { localDay } from '../helpers/dates';
import { resultOnceStarted } from '../helpers/workflows';
import { readStackInfo } from '../helpers/stack-env';
import { createCategory, createRoom } from '../helpers/structure';

/**
 * Points for a stay as the stack earns them: the booking workflow credits the stay once it is checked out, whether the
 * desk checked it out or the auto-checkout job did, and nothing any other asker does afterwards writes a second row.
 */

let t: TestApp;
let connection: Connection;
let client: Client;

beforeAll(async () => {
  t = createTestApp();
  connection = await Connection.connect({ address: readStackInfo().env.TEMPORAL_ADDRESS });
  client = new Client({ connection });
});
afterAll(async () => {
  await connection.close();
  await t.close();
});

const api = (hotel: RegisteredHotel, path: string) => `/api/hotels/${hotel.slug}${path}`;

/** A hotel running its programme (5 points per 100), checking overdue stays out at once, with one room. */
async function loyaltyHotel() {
  const hotel = await registerHotel(t);
  const auth = as(hotel.accessToken);
  await t.http
    .patch(api(hotel, '/settings'))
    .set(auth)
    .send({ auto_checkout: true, auto_checkout_hours: 0 })
    .expect(200);
  await t.http.patch(api(hotel, '/loyalty/settings')).set(auth).send({ enabled: true }).expect(200);
  const category = await createCategory(t, hotel);
  const room = await createRoom(t, hotel, category.id);
  return { hotel, room };
}

/** A stay checked in now, for the nights given, at 8000.00. */
async function checkedIn(hotel: RegisteredHotel, roomId: string, checkIn: string, checkOut: string) {
  const booked = await t.http
    .post(api(hotel, '/bookings'))
    .set(as(hotel.accessToken))
    .send({
      room_id: roomId,
      check_in: checkIn,
      check_out: checkOut,
      guest_last_name: 'Баллов',
      guest_first_name: 'Пётр',
      guest_phone: `+7999${String(Date.now()).slice(-7)}`,
      price: '8000.00',
    })
    .expect(201);
  await t.http
    .patch(api(hotel, `/bookings/${booked.body.id}`))
    .set(as(hotel.accessToken))
    .send({ status: 'checked_in' })
    .expect(200);
  return booked.body.id as string;
}

/** Waits for the booking's workflow to end (the steps after the stay included) with the status it ended at. */
const workflowEnded = (bookingId: string) => resultOnceStarted(client, `booking:${bookingId}`);

const stayRows = (hotel: RegisteredHotel, bookingId: string) =>
  t.db('loyalty_entries').where({ hotel_id: hotel.hotelId, booking_id: bookingId, reason: 'stay' });

describe('loyalty accrual by the booking workflow', () => {
  it('credits a stay the desk checks out, once however often the desk and the activity repeat it', async () => {
    const { hotel, room } = await loyaltyHotel();
    const bookingId = await checkedIn(hotel, room.id, localDay(-2), localDay(0));
    await t.http
      .patch(api(hotel, `/bookings/${bookingId}`))
      .set(as(hotel.accessToken))
      .send({ status: 'checked_out' })
      .expect(200);
    expect(await workflowEnded(bookingId)).toBe('checked_out');
    expect(await stayRows(hotel, bookingId)).toEqual([expect.objectContaining({ points: 400, stay_nights: 2 })]);

    // The desk asks again, the status is sent again, the activity runs again: nothing more is written.
    const credit = await t.http
      .post(api(hotel, `/bookings/${bookingId}/loyalty-accrual`))
      .set(as(hotel.accessToken))
      .expect(200);
    expect(credit.body).toMatchObject({ result: 'already_accrued', entry: { points: 400 } });
    await t.http
      .patch(api(hotel, `/bookings/${bookingId}`))
      .set(as(hotel.accessToken))
      .send({ status: 'checked_out' })
      .expect(422);
    expect(await t.services.loyalty.accrueStayPoints(hotel.hotelId, bookingId)).toBe('already_accrued');
    expect(await stayRows(hotel, bookingId)).toHaveLength(1);
    const guestId = (await stayRows(hotel, bookingId))[0].guest_id;
    const account = await t.http
      .get(api(hotel, `/guests/${guestId}/loyalty`))
      .set(as(hotel.accessToken))
      .expect(200);
    expect(account.body.balance).toBe(400);
  });

  it('credits a stay the auto-checkout job checks out, once even when the job runs again', async () => {
    const { hotel, room } = await loyaltyHotel();
    const overdue = await checkedIn(hotel, room.id, localDay(-3), localDay(-1));
    for (const run of [1, 2])
      await client.workflow.execute('autoCheckoutSweep', {
        taskQueue: 'hotel',
        workflowId: `test-loyalty-checkout-${overdue}-${run}`,
      });
    expect(await workflowEnded(overdue)).toBe('checked_out');
    expect(await stayRows(hotel, overdue)).toEqual([expect.objectContaining({ points: 400, stay_nights: 2 })]);
  });
});
