import { createTestApp, type TestApp } from '../helpers/app';
import { as, registerHotel, type RegisteredHotel } from '../helpers/accounts';
import { createCategory, createRoom } from '../helpers/structure';

let t: TestApp;
let owner: RegisteredHotel;
beforeAll(async () => {
  t = createTestApp();
  owner = await registerHotel(t);
});
afterAll(() => t.close());

const hotelPath = (path: string) => `/api/hotels/${owner.slug}${path}`;

interface Walked {
  items: { id: string }[];
  pages: number;
}

/** Reads a list page by page, following each answer's `Link: <...>; rel="next"` until an answer has none. */
async function walk(path: string, query: Record<string, string | number>): Promise<Walked> {
  let response = await t.http.get(hotelPath(path)).query(query).set(as(owner.accessToken)).expect(200);
  const items: { id: string }[] = [...response.body];
  let pages = 1;
  while (response.headers.link) {
    const [, next] = /^<([^>]+)>; rel="next"$/.exec(response.headers.link)!;
    const url = new URL(next);
    expect(url.searchParams.get('cursor')).toBe(response.headers['x-next-cursor']);
    response = await t.http.get(`${url.pathname}${url.search}`).set(as(owner.accessToken)).expect(200);
    items.push(...response.body);
    pages++;
  }
  expect(response.headers['x-next-cursor']).toBeUndefined();
  // The sort key travels in the cursor only, never in the items.
  for (const item of items) expect(Object.keys(item).filter((key) => key.startsWith('page_key'))).toEqual([]);
  return { items, pages };
}

/** The whole list in one page (it fits in the largest one), to compare a walk with. */
async function whole(path: string, query: Record<string, string | number>) {
  const response = await t.http
    .get(hotelPath(path))
    .query({ ...query, limit: 500 })
    .set(as(owner.accessToken))
    .expect(200);
  expect(response.headers.link).toBeUndefined();
  return response.body as { id: string }[];
}

async function expectWalkedInOrder(path: string, query: Record<string, string | number>, expectedCount: number) {
  const all = await whole(path, query);
  expect(all).toHaveLength(expectedCount);
  const walked = await walk(path, { ...query, limit: 2 });
  expect(walked.items.map((item) => item.id)).toEqual(all.map((item) => item.id));
  expect(walked.pages).toBe(Math.ceil(expectedCount / 2));
}

describe('cursor pagination', () => {
  it('walks bookings page by page, every one exactly once in calendar order, with filters', async () => {
    const category = await createCategory(t, owner);
    const [roomA, roomB] = [await createRoom(t, owner, category.id), await createRoom(t, owner, category.id)];
    const book = (roomId: string, day: number, status = 'confirmed') =>
      t.http
        .post(hotelPath('/bookings'))
        .set(as(owner.accessToken))
        .send({
          room_id: roomId,
          check_in: `2032-01-${String(day).padStart(2, '0')}`,
          check_out: `2032-01-${String(day + 1).padStart(2, '0')}`,
          guest_last_name: 'Гостев',
          guest_first_name: 'Гость',
          status,
        })
        .expect(201);
    // Two rooms booked for the same nights: equal start times, ordered by id.
    for (const day of [1, 2, 3, 4, 5]) await book(roomA.id, day);
    for (const day of [1, 2, 3]) await book(roomB.id, day);
    await book(roomB.id, 7, 'inquiry');

    await expectWalkedInOrder('/bookings', { from: '2032-01-01', to: '2032-01-31' }, 9);
    await expectWalkedInOrder('/bookings', { room_id: roomB.id }, 4);
    await expectWalkedInOrder('/bookings', { room_id: roomB.id, status: 'confirmed' }, 3);
  });

  it('walks guests of equal names (ties broken by id) and tasks created within the same millisecond or two', async () => {
    for (let n = 0; n < 5; n++) {
      await t.http
        .post(hotelPath('/guests'))
        .set(as(owner.accessToken))
        .send({ last_name: 'Однофамильцев', first_name: 'Тёзка' })
        .expect(201);
    }
    await expectWalkedInOrder('/guests', { q: 'Однофамильцев' }, 5);

    await Promise.all(
      Array.from({ length: 6 }, (_, n) =>
        t.http
          .post(hotelPath('/housekeeping'))
          .set(as(owner.accessToken))
          .send({ category: 'maintenance', priority: n % 2 ? 'urgent' : 'low', notes: `задача ${n}` })
          .expect(201),
      ),
    );
    await expectWalkedInOrder('/housekeeping', { category: 'maintenance' }, 6);
    const urgentFirst = (await whole('/housekeeping', { category: 'maintenance' })) as unknown as {
      priority: string;
    }[];
    expect(urgentFirst.map((task) => task.priority)).toEqual(['urgent', 'urgent', 'urgent', 'low', 'low', 'low']);
  });

  it('walks a newest-first list backwards in time', async () => {
    const item = await t.http
      .post(hotelPath('/minibar-items'))
      .set(as(owner.accessToken))
      .send({ name: 'Сок', price: 200 })
      .expect(201);
    for (let n = 1; n <= 5; n++) {
      await t.http
        .post(hotelPath('/minibar/stock'))
        .set(as(owner.accessToken))
        .send({ item_id: item.body.id, kind: 'receipt', quantity: n })
        .expect(201);
    }
    const walked = await walk('/minibar/stock/movements', { item_id: item.body.id, limit: 2 });
    expect(walked.items.map((movement) => (movement as unknown as { quantity: number }).quantity)).toEqual([
      5, 4, 3, 2, 1,
    ]);
  });

  it('a list that fits in one page has no Link; the default page is 100, the largest 500', async () => {
    const first = await t.http.get(hotelPath('/tariffs')).set(as(owner.accessToken)).expect(200);
    expect(first.headers.link).toBeUndefined();
    expect(first.headers['x-next-cursor']).toBeUndefined();
    await t.http.get(hotelPath('/tariffs')).query({ limit: 501 }).set(as(owner.accessToken)).expect(400);
    await t.http.get(hotelPath('/tariffs')).query({ limit: 0 }).set(as(owner.accessToken)).expect(400);
    const document = (await t.http.get('/api/openapi.json').expect(200)).body;
    const list = document.paths['/api/hotels/{slug}/bookings'].get;
    expect(list.parameters).toContainEqual(
      expect.objectContaining({ name: 'limit', schema: expect.objectContaining({ default: 100, maximum: 500 }) }),
    );
    expect(list.parameters).toContainEqual(expect.objectContaining({ name: 'cursor', in: 'query' }));
    expect(Object.keys(list.responses['200'].headers)).toEqual(expect.arrayContaining(['Link', 'X-Next-Cursor']));
  });

  it('CORS lets the application read the next cursor', async () => {
    const response = await t.http.get('/health').set('Origin', t.config.appUrl).expect(200);
    expect(String(response.headers['access-control-expose-headers']).split(/,\s*/)).toContain('X-Next-Cursor');
  });

  it('a cursor that is not one the list gave is a 400', async () => {
    const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    for (const cursor of [
      'not base64!',
      encode({ not: 'a list' }),
      encode(['2032-01-01 12:00:00+00']),
      encode(['yesterday-ish', '00000000-0000-0000-0000-000000000000']),
      encode(['2032-02-30 12:00:00+00', '00000000-0000-0000-0000-000000000000']),
      encode(['2032-01-01 12:00:00+00', 'not-a-uuid']),
    ]) {
      const response = await t.http.get(hotelPath('/bookings')).query({ cursor }).set(as(owner.accessToken));
      expect({ cursor, status: response.status, code: response.body.code }).toEqual({
        cursor,
        status: 400,
        code: 'validation_failed',
      });
    }
  });
});
