import { as, registerHotel, uniqueEmail, type RegisteredHotel } from './accounts';
import type { TestApp } from './app';
import { localDay } from './dates';
import { linkIn, tokenOf, waitForMessages, type CaughtMessage } from './mail';
import { createCategory, createRoom } from './structure';

/** The links of a review invitation (APP_URL of the test stack). */
export const REVIEW_LINK = 'http://app.test/review?token=';
export const OPT_OUT_LINK = 'http://app.test/review/opt-out?token=';

export interface StayOptions {
  /** The guest's address; null for none. A fresh one by default. */
  email?: string | null;
  firstName?: string;
  source?: string;
}

/**
 * A hotel whose review settings are `settings` (invitations on by default), and a way to make stays in it and check
 * them out (a room each), which is what starts an invitation's timer in the booking workflow.
 */
export async function reviewingHotel(t: TestApp, settings: Record<string, unknown> = { invitations_enabled: true }) {
  const hotel = await registerHotel(t);
  const api = (path: string) => `/api/hotels/${hotel.slug}${path}`;
  await t.http.patch(api('/review-settings')).set(as(hotel.accessToken)).send(settings).expect(200);
  const category = await createCategory(t, hotel);

  async function book({ email, firstName = 'Ольга', source = 'front_desk' }: StayOptions = {}) {
    const room = await createRoom(t, hotel, category.id);
    const address = email === undefined ? uniqueEmail('guest') : email;
    const { body } = await t.http
      .post(api('/bookings'))
      .set(as(hotel.accessToken))
      .send({
        room_id: room.id,
        check_in: localDay(-2),
        check_out: localDay(1),
        guest_last_name: 'Смирнова',
        guest_first_name: firstName,
        guest_email: address,
        source,
        status: 'confirmed',
      })
      .expect(201);
    return { id: body.id as string, email: address, check_in: body.check_in as string };
  }

  const setStatus = (bookingId: string, status: string) =>
    t.http
      .patch(api(`/bookings/${bookingId}`))
      .set(as(hotel.accessToken))
      .send({ status })
      .expect(200);

  /** A stay checked in and out now. */
  async function checkedOut(options: StayOptions = {}) {
    const stay = await book(options);
    await setStatus(stay.id, 'checked_in');
    await setStatus(stay.id, 'checked_out');
    return stay;
  }

  return { hotel, api, book, setStatus, checkedOut };
}

export type ReviewingHotel = Awaited<ReturnType<typeof reviewingHotel>>;

/** The invitation e-mail to `address` once it has come, and the token of its review link. */
export async function invitationTo(address: string): Promise<{ message: CaughtMessage; token: string }> {
  const [message] = await waitForMessages(address, 1, 30_000);
  return { message, token: tokenOf(linkIn(message, REVIEW_LINK)) };
}

/** A checked-out stay of the hotel, its invitation e-mailed, reviewed with `ratings`; answers the review's id. */
export async function reviewedStay(t: TestApp, owner: ReviewingHotel, ratings: Record<string, unknown>) {
  const stay = await owner.checkedOut();
  const { token } = await invitationTo(stay.email!);
  await t.http.post(`/api/review-links/${token}/review`).send(ratings).expect(201);
  const { body } = await t.http
    .get(owner.api('/reviews'))
    .query({ limit: 500 })
    .set(as(owner.hotel.accessToken))
    .expect(200);
  return (body as { id: string; booking_id: string }[]).find((review) => review.booking_id === stay.id)!.id;
}

export type { RegisteredHotel };
