import { randomUUID } from 'node:crypto';
import { createTestApp, type TestApp } from '../helpers/app';
import { addStaff, as, registerHotel, type RegisteredHotel } from '../helpers/accounts';
import { problem } from '../helpers/problem';
import { createCategory, createRoom } from '../helpers/structure';

let t: TestApp;
let owner: RegisteredHotel;
beforeAll(async () => {
  t = createTestApp();
  owner = await registerHotel(t);
});
afterAll(() => t.close());

const staleMessage = 'Запись изменилась с тех пор, как вы её получили: загрузите её заново и повторите изменение';

const hotelPath = (path: string) => `/api/hotels/${owner.slug}${path}`;

function patch(path: string, body: Record<string, unknown>, ifMatch?: string) {
  const request = t.http.patch(hotelPath(path)).set(as(owner.accessToken));
  return (ifMatch === undefined ? request : request.set('If-Match', ifMatch)).send(body);
}

async function createBooking(roomId: string, checkIn: string, checkOut: string) {
  const response = await t.http
    .post(hotelPath('/bookings'))
    .set(as(owner.accessToken))
    .send({
      room_id: roomId,
      check_in: checkIn,
      check_out: checkOut,
      guest_last_name: 'Петров',
      guest_first_name: 'Пётр',
    })
    .expect(201);
  return response.body as { id: string };
}

/** Every record that can be changed, as a route and three different changes of it. */
const records: [string, () => Promise<string>, Record<string, unknown>[]][] = [
  [
    'room',
    async () => `/rooms/${(await createRoom(t, owner, (await createCategory(t, owner)).id)).id}`,
    [{ notes: 'a' }, { notes: 'b' }, { notes: 'c' }],
  ],
  [
    'room status',
    async () => `/rooms/${(await createRoom(t, owner, (await createCategory(t, owner)).id)).id}/status`,
    [{ status: 'dirty' }, { status: 'clean' }, { status: 'inspect' }],
  ],
  [
    'room category',
    async () => `/room-categories/${(await createCategory(t, owner)).id}`,
    [{ capacity: 2 }, { capacity: 3 }, { capacity: 4 }],
  ],
  [
    'booking',
    async () =>
      `/bookings/${(await createBooking((await createRoom(t, owner, (await createCategory(t, owner)).id)).id, '2031-03-01', '2031-03-03')).id}`,
    [{ notes: 'a' }, { notes: 'b' }, { notes: 'c' }],
  ],
  [
    'guest',
    async () => {
      const guest = await t.http
        .post(hotelPath('/guests'))
        .set(as(owner.accessToken))
        .send({ last_name: 'Сидоров', first_name: 'Семён' })
        .expect(201);
      return `/guests/${guest.body.id}`;
    },
    [{ notes: 'a' }, { notes: 'b' }, { notes: 'c' }],
  ],
  [
    'housekeeping task',
    async () => {
      const task = await t.http
        .post(hotelPath('/housekeeping'))
        .set(as(owner.accessToken))
        .send({ category: 'housekeeping' })
        .expect(201);
      return `/housekeeping/${task.body.id}`;
    },
    [{ notes: 'a' }, { notes: 'b' }, { notes: 'c' }],
  ],
  [
    'staff member',
    async () => `/users/${(await addStaff(t, owner, 'receptionist')).id}`,
    [{ position: 'a' }, { position: 'b' }, { position: 'c' }],
  ],
  [
    'hotel',
    async () => '',
    [{ phone: '+7 900 000-00-01' }, { phone: '+7 900 000-00-02' }, { phone: '+7 900 000-00-03' }],
  ],
  ['hotel settings', async () => '/settings', [{ no_show_hours: 1 }, { no_show_hours: 2 }, { no_show_hours: 3 }]],
  [
    'housekeeping settings',
    async () => '/housekeeping-settings',
    [{ emergency_close_days: 1 }, { emergency_close_days: 2 }, { emergency_close_days: 3 }],
  ],
  [
    'payment settings',
    async () => '/payment-settings',
    [{ require_payment_checkin: 'none' }, { require_payment_checkin: 'soft' }, { require_payment_checkin: 'hard' }],
  ],
];

describe.each(records)('If-Match on a %s', (_name, create, [first, second, third]) => {
  it('a change names the version it read: a fresh ETag wins and answers the new one, a stale one is 412', async () => {
    const path = await create();
    const read = await patch(path, first).expect(200);
    const version = read.headers.etag as string;
    expect(version).toMatch(/^"[0-9a-z]+"$/);

    const fresh = await patch(path, second, version).expect(200);
    expect(fresh.body).toMatchObject(second);
    expect(fresh.headers.etag).toMatch(/^"[0-9a-z]+"$/);
    expect(fresh.headers.etag).not.toBe(version);

    const stale = await patch(path, third, version).expect(412);
    expect(stale.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(stale.body).toEqual(problem(412, 'precondition_failed', staleMessage));

    // Nothing changed: the record is still the second change, in the version that change answered.
    const again = await patch(path, second, fresh.headers.etag).expect(200);
    expect(again.body).toMatchObject(second);
  });
});

describe('ETag and If-Match', () => {
  it('a record read answers its ETag, the same as the last change answered; If-None-Match gets a 304', async () => {
    const category = await createCategory(t, owner);
    const changed = await patch(`/room-categories/${category.id}`, { capacity: 5 }).expect(200);
    const read = await t.http
      .get(hotelPath(`/room-categories/${category.id}`))
      .set(as(owner.accessToken))
      .expect(200);
    expect(read.headers.etag).toBe(changed.headers.etag);
    await t.http
      .get(hotelPath(`/room-categories/${category.id}`))
      .set(as(owner.accessToken))
      .set('If-None-Match', read.headers.etag)
      .expect(304);
  });

  it('of two changes sent at once with the same ETag, exactly one is applied and the other is 412', async () => {
    const room = await createRoom(t, owner, (await createCategory(t, owner)).id);
    const booking = await createBooking(room.id, '2031-04-01', '2031-04-03');
    for (const path of [`/rooms/${room.id}`, `/bookings/${booking.id}`]) {
      const read = await t.http.get(hotelPath(path)).set(as(owner.accessToken)).expect(200);
      const version = read.headers.etag as string;
      const answers = await Promise.all(['first', 'second'].map((notes) => patch(path, { notes }, version)));
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 412]);
      const winner = answers.find((answer) => answer.status === 200)!;
      const after = await t.http.get(hotelPath(path)).set(as(owner.accessToken)).expect(200);
      expect(after.body.notes).toBe(winner.body.notes);
      expect(after.headers.etag).toBe(winner.headers.etag);
    }
  });

  it('a deletion with a stale ETag is 412 and deletes nothing; with the current one it deletes', async () => {
    const tariff = await t.http
      .post(hotelPath('/tariffs'))
      .set(as(owner.accessToken))
      .send({ name: `Тариф ${Date.now()}`, adjustment_type: 'percent', adjustment_value: -5 })
      .expect(201);
    const path = hotelPath(`/tariffs/${tariff.body.id}`);
    const before = await t.http.get(path).set(as(owner.accessToken)).expect(200);
    await patch(`/tariffs/${tariff.body.id}`, { description: 'новое' }).expect(200);
    await t.http.delete(path).set(as(owner.accessToken)).set('If-Match', before.headers.etag).expect(412);
    const current = await t.http.get(path).set(as(owner.accessToken)).expect(200);
    await t.http.delete(path).set(as(owner.accessToken)).set('If-Match', current.headers.etag).expect(200);
    await t.http.get(path).set(as(owner.accessToken)).expect(404);
  });

  it('`*` matches any version, a weak or unknown tag none, and a header that is no list of tags is a 400', async () => {
    const category = await createCategory(t, owner);
    const path = `/room-categories/${category.id}`;
    await patch(path, { capacity: 2 }, '*').expect(200);
    await patch(path, { capacity: 3 }, 'W/"abc"').expect(412);
    await patch(path, { capacity: 3 }, '"zzzzzzzzzzzzzzzz", "1"').expect(412);
    const malformed = await patch(path, { capacity: 3 }, 'not-a-tag').expect(400);
    expect(malformed.body.code).toBe('validation_failed');
    expect(malformed.body.details).toEqual([{ path: 'headers.if-match', message: expect.any(String) }]);
    await patch(`/room-categories/${randomUUID()}`, { capacity: 3 }, '"1"').expect(404);
  });

  it('the hotel settings change version when the hotel changes the check-in time they show', async () => {
    const settings = await t.http.get(hotelPath('/settings')).set(as(owner.accessToken)).expect(200);
    await patch('', { check_in_time: '15:00' }).expect(200);
    await patch('/settings', { no_show_hours: 4 }, settings.headers.etag).expect(412);
  });

  it('the OpenAPI document names the ETag, If-Match and the 412 on record routes', async () => {
    const document = (await t.http.get('/api/openapi.json').expect(200)).body;
    const item = document.paths['/api/hotels/{slug}/bookings/{id}'];
    expect(item.get.responses['200'].headers.ETag).toBeDefined();
    expect(item.patch.parameters).toContainEqual(expect.objectContaining({ name: 'If-Match', in: 'header' }));
    expect(item.patch.responses['412']).toBeDefined();
    expect(item.patch.responses['200'].headers.ETag).toBeDefined();
    const remove = document.paths['/api/hotels/{slug}/rooms/{id}'].delete;
    expect(remove.parameters).toContainEqual(expect.objectContaining({ name: 'If-Match' }));
    expect(remove.responses['412']).toBeDefined();
  });
});
