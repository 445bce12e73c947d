import { as, type RegisteredHotel } from './accounts';
import type { TestApp } from './app';

/** A guest profile of the hotel with `phone`, put on its blacklist through the API; answers the profile's id. */
export async function blacklistedGuest(t: TestApp, hotel: RegisteredHotel, phone: string): Promise<string> {
  const api = `/api/hotels/${hotel.slug}/guests`;
  const guest = await t.http
    .post(api)
    .set(as(hotel.accessToken))
    .send({ last_name: 'Нарушитель', first_name: 'Иван', phone })
    .expect(201);
  await t.http
    .post(`${api}/${guest.body.id}/blacklist`)
    .set(as(hotel.accessToken))
    .send({ is_blacklisted: true, reason: 'Порча имущества' })
    .expect(200);
  return guest.body.id as string;
}
