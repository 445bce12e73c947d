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

/** Numbers this process's rooms: distinct within any hotel, and clear of the short numbers tests choose themselves. */
let lastRoomNumber = 100_000 + Math.floor(Math.random() * 800_000);

/** Creates a room through the API and returns it. */
export async function createRoom(
  t: TestApp,
  owner: RegisteredHotel,
  categoryId: string,
  body: Record<string, unknown> = {},
) {
  lastRoomNumber += 1;
  const response = await t.http
    .post(`/api/hotels/${owner.slug}/rooms`)
    .set(as(owner.accessToken))
    .send({ number: String(lastRoomNumber), category_id: categoryId, ...body })
    .expect(201);
  return response.body as { id: string; number: string; status: string };
}

/** A valid 1x1 PNG. */
export const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** Uploads a photo for the hotel through `POST /api/upload` and returns its public URL. */
export async function uploadPhoto(t: TestApp, owner: RegisteredHotel, folder = 'rooms'): Promise<string> {
  const response = await t.http
    .post(`/api/upload?folder=${folder}`)
    .set(as(owner.accessToken))
    .attach('file', TINY_PNG, 'photo.png')
    .expect(201);
  return response.body.url as string;
}
