import { as, type RegisteredHotel } from './accounts';
import type { TestApp } from './app';

/** Creates a room category through the API and returns it. */
export async function createCategory(t: TestApp, owner: RegisteredHotel, body: Record<string, unknown> = {}) {
  const response = await t.http
    .post(`/api/hotels/${owner.slug}/room-categories`)
    .set(as(owner.accessToken))
    .send({ name: `Standard ${Math.random().toString(36).slice(2, 8)}`, base_price: 5000, ...body })
    .expect(201);
  return response.body as { id: string; name: string; base_price: string };
}

/** Creates a room through the API and returns it. */
export async function createRoom(
  t: TestApp,
  owner: RegisteredHotel,
  categoryId: string,
  body: Record<string, unknown> = {},
) {
  const response = await t.http
    .post(`/api/hotels/${owner.slug}/rooms`)
    .set(as(owner.accessToken))
    .send({ number: String(Math.floor(Math.random() * 1e6)), category_id: categoryId, ...body })
    .expect(201);
  return response.body as { id: string; number: string; status: string };
}
