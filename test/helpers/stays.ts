import type { TestApp } from './app';
import { as, type RegisteredHotel } from './accounts';

export type StayStatus = 'confirmed' | 'checked_in' | 'checked_out';

/** Moves a confirmed booking on to `status` as the owner would at the desk: checked in, then out. */
export async function bringStayTo(t: TestApp, hotel: RegisteredHotel, bookingId: string, status: StayStatus) {
  const steps = { confirmed: [], checked_in: ['checked_in'], checked_out: ['checked_in', 'checked_out'] }[status];
  for (const step of steps)
    await t.http
      .patch(`/api/hotels/${hotel.slug}/bookings/${bookingId}`)
      .set(as(hotel.accessToken))
      .send({ status: step })
      .expect(200);
}
