import { as, type RegisteredHotel } from './accounts';
import type { TestApp } from './app';

/** A booking's timeline as a client reads it (200 expected). */
export async function readTimeline<T>(t: TestApp, hotel: RegisteredHotel, id: string, token: string): Promise<T> {
  const read = await t.http.get(`/api/hotels/${hotel.slug}/bookings/${id}/timeline`).set(as(token)).expect(200);
  return read.body as T;
}
