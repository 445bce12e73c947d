import { createTestApp, type TestApp } from '../helpers/app';
import { addStaff, as, registerHotel, type RegisteredHotel } from '../helpers/accounts';
import { createCategory, createRoom, uploadPhoto } from '../helpers/structure';

let t: TestApp;
let owner: RegisteredHotel;
let other: RegisteredHotel;
beforeAll(async () => {
  t = createTestApp();
  [owner, other] = await Promise.all([registerHotel(t), registerHotel(t)]);
});
afterAll(() => t.close());

describe('room categories', () => {
  it('create, read, list, update, delete; money goes out as strings', async () => {
    const created = await t.http
      .post(`/api/hotels/${owner.slug}/room-categories`)
      .set(as(owner.accessToken))
      .send({
        name: 'Люкс',
        description: 'С видом на море',
        capacity: 3,
        base_price: 12000.5,
        allow_hourly: true,
        hourly_base_price: '900',
      })
      .expect(201);
    expect(created.body).toMatchObject({
      name: 'Люкс',
      capacity: 3,
      base_price: '12000.50',
      allow_hourly: true,
      hourly_base_price: '900.00',
      photos: [],
      is_active: true,
    });
    const id = created.body.id;
    await t.http.get(`/api/hotels/${owner.slug}/room-categories/${id}`).set(as(owner.accessToken)).expect(200);
    const updated = await t.http
      .patch(`/api/hotels/${owner.slug}/room-categories/${id}`)
      .set(as(owner.accessToken))
      .send({ base_price: '13000', is_active: false })
      .expect(200);
    expect(updated.body).toMatchObject({ base_price: '13000.00', is_active: false });
    const inactive = await t.http
      .get(`/api/hotels/${owner.slug}/room-categories?is_active=false`)
      .set(as(owner.accessToken))
      .expect(200);
    expect(inactive.body.map((c: { id: string }) => c.id)).toContain(id);
    await t.http.delete(`/api/hotels/${owner.slug}/room-categories/${id}`).set(as(owner.accessToken)).expect(200);
    await t.http.get(`/api/hotels/${owner.slug}/room-categories/${id}`).set(as(owner.accessToken)).expect(404);
  });

  it('409 for a duplicate name; 409 deleting a category that has rooms', async () => {
    const category = await createCategory(t, owner);
    await t.http
      .post(`/api/hotels/${owner.slug}/room-categories`)
      .set(as(owner.accessToken))
      .send({ name: category.name, base_price: 1 })
      .expect(409);
    await createRoom(t, owner, category.id);
    await t.http
      .delete(`/api/hotels/${owner.slug}/room-categories/${category.id}`)
      .set(as(owner.accessToken))
      .expect(409);
  });

  it.each([
    [{ base_price: 100 }, 'body.name'],
    [{ name: 'X' }, 'body.base_price'],
    [{ name: 'X', base_price: -1 }, 'body.base_price'],
    [{ name: 'X', base_price: '12.345' }, 'body.base_price'],
    [{ name: 'X', base_price: 1, capacity: 0 }, 'body.capacity'],
    [{ name: 'X', base_price: 1, photos: ['not a url'] }, 'body.photos.0'],
  ])('400 for %j', async (body, path) => {
    const response = await t.http
      .post(`/api/hotels/${owner.slug}/room-categories`)
      .set(as(owner.accessToken))
      .send(body)
      .expect(400);
    expect(response.body.details.map((d: { path: string }) => d.path)).toContain(path);
  });

  it('refuses photos that were not uploaded by this hotel', async () => {
    await t.http
      .post(`/api/hotels/${owner.slug}/room-categories`)
      .set(as(owner.accessToken))
      .send({ name: 'Hotlinked', base_price: 1, photos: ['https://elsewhere.example/p.jpg'] })
      .expect(400);
    await t.http
      .post(`/api/hotels/${owner.slug}/room-categories`)
      .set(as(owner.accessToken))
      .send({
        name: 'Unknown file',
        base_price: 1,
        photos: [`${t.config.cdnUrl}/categories/00000000-0000-4000-8000-000000000000.jpg`],
      })
      .expect(400);
    const theirs = await uploadPhoto(t, other, 'categories');
    await t.http
      .post(`/api/hotels/${owner.slug}/room-categories`)
      .set(as(owner.accessToken))
      .send({ name: 'Borrowed', base_price: 1, photos: [theirs] })
      .expect(400);
    const ours = await uploadPhoto(t, owner, 'categories');
    const created = await t.http
      .post(`/api/hotels/${owner.slug}/room-categories`)
      .set(as(owner.accessToken))
      .send({ name: 'Ours', base_price: 1, photos: [ours] })
      .expect(201);
    expect(created.body.photos).toEqual([ours]);
  });
});

describe('rooms', () => {
  it('create with every field, filter the list, update, delete', async () => {
    const category = await createCategory(t, owner);
    const room = await t.http
      .post(`/api/hotels/${owner.slug}/rooms`)
      .set(as(owner.accessToken))
      .send({
        number: '301',
        category_id: category.id,
        floor: 3,
        base_rate: 6500,
        hourly_rate: 700,
        max_guests: 3,
        bed_type: 'king',
        early_checkin_fee: 1500,
        late_checkout_fee: '1000.00',
      })
      .expect(201);
    expect(room.body).toMatchObject({
      number: '301',
      floor: '3',
      base_rate: '6500.00',
      hourly_rate: '700.00',
      max_guests: 3,
      bed_type: 'king',
      early_checkin_fee: '1500.00',
      late_checkout_fee: '1000.00',
      status: 'clean',
    });
    await createRoom(t, owner, category.id, { number: '302', floor: 3, status: 'dirty' });
    // Not digits only: other tests' rooms in this hotel have random numbers, and one may contain "40".
    await createRoom(t, owner, category.id, { number: 'K401', floor: 4 });

    const floor3 = await t.http.get(`/api/hotels/${owner.slug}/rooms?floor=3`).set(as(owner.accessToken)).expect(200);
    expect(floor3.body.map((r: { number: string }) => r.number)).toEqual(['301', '302']);
    const dirty = await t.http
      .get(`/api/hotels/${owner.slug}/rooms?status=dirty&category_id=${category.id}`)
      .set(as(owner.accessToken))
      .expect(200);
    expect(dirty.body.map((r: { number: string }) => r.number)).toEqual(['302']);
    const search = await t.http
      .get(`/api/hotels/${owner.slug}/rooms?search=K40`)
      .set(as(owner.accessToken))
      .expect(200);
    expect(search.body.map((r: { number: string }) => r.number)).toEqual(['K401']);

    const updated = await t.http
      .patch(`/api/hotels/${owner.slug}/rooms/${room.body.id}`)
      .set(as(owner.accessToken))
      .send({ base_rate: null, notes: 'Вид во двор' })
      .expect(200);
    expect(updated.body).toMatchObject({ base_rate: null, notes: 'Вид во двор' });
    await t.http.delete(`/api/hotels/${owner.slug}/rooms/${room.body.id}`).set(as(owner.accessToken)).expect(200);
    await t.http.get(`/api/hotels/${owner.slug}/rooms/${room.body.id}`).set(as(owner.accessToken)).expect(404);
  });

  it('room numbers are unique within a hotel, not across hotels', async () => {
    const mine = await createCategory(t, owner);
    const theirs = await createCategory(t, other);
    await createRoom(t, owner, mine.id, { number: 'A-1' });
    const clash = await t.http
      .post(`/api/hotels/${owner.slug}/rooms`)
      .set(as(owner.accessToken))
      .send({ number: 'A-1', category_id: mine.id })
      .expect(409);
    expect(clash.body.error).toBe('Номер с таким названием уже существует');
    await createRoom(t, other, theirs.id, { number: 'A-1' });
  });

  it("a room cannot be put in another hotel's category", async () => {
    const theirs = await createCategory(t, other);
    await t.http
      .post(`/api/hotels/${owner.slug}/rooms`)
      .set(as(owner.accessToken))
      .send({ number: 'X-9', category_id: theirs.id })
      .expect(400);
  });

  it('staff set statuses, never cleaning (422); maintenance carries its span', async () => {
    const category = await createCategory(t, owner);
    const room = await createRoom(t, owner, category.id);
    const maid = await addStaff(t, owner, 'housekeeper');
    const path = `/api/hotels/${owner.slug}/rooms/${room.id}/status`;
    await t.http.patch(path).set(as(maid.accessToken)).send({ status: 'dirty' }).expect(200);
    const refused = await t.http.patch(path).set(as(maid.accessToken)).send({ status: 'cleaning' }).expect(422);
    expect(refused.body.error).toMatch(/cleaning/);
    await t.http
      .patch(`/api/hotels/${owner.slug}/rooms/${room.id}`)
      .set(as(owner.accessToken))
      .send({ status: 'cleaning' })
      .expect(422);
    const closed = await t.http
      .patch(path)
      .set(as(owner.accessToken))
      .send({ status: 'maintenance', maintenance_from: '2026-12-01T10:00:00Z', maintenance_to: '2026-12-03T10:00:00Z' })
      .expect(200);
    expect(closed.body).toMatchObject({ status: 'maintenance', maintenance_from: '2026-12-01T10:00:00.000Z' });
    await t.http
      .patch(path)
      .set(as(owner.accessToken))
      .send({ status: 'maintenance', maintenance_from: '2026-12-05T10:00:00Z', maintenance_to: '2026-12-04T10:00:00Z' })
      .expect(400);
    await t.http.patch(path).set(as(maid.accessToken)).send({ status: 'sparkling' }).expect(400);
    expect((await t.db('rooms').where({ id: room.id }).first()).status).toBe('maintenance');
  });

  it('roles: staff read, management writes, accountants do not move rooms', async () => {
    const category = await createCategory(t, owner);
    const room = await createRoom(t, owner, category.id);
    const desk = await addStaff(t, owner, 'receptionist');
    const accountant = await addStaff(t, owner, 'accountant');
    await t.http.get(`/api/hotels/${owner.slug}/rooms`).set(as(accountant.accessToken)).expect(200);
    await t.http
      .post(`/api/hotels/${owner.slug}/rooms`)
      .set(as(desk.accessToken))
      .send({ number: 'Z1', category_id: category.id })
      .expect(403);
    await t.http
      .patch(`/api/hotels/${owner.slug}/rooms/${room.id}`)
      .set(as(desk.accessToken))
      .send({ notes: 'x' })
      .expect(403);
    await t.http
      .patch(`/api/hotels/${owner.slug}/rooms/${room.id}/status`)
      .set(as(desk.accessToken))
      .send({ status: 'dirty' })
      .expect(200);
    await t.http
      .patch(`/api/hotels/${owner.slug}/rooms/${room.id}/status`)
      .set(as(accountant.accessToken))
      .send({ status: 'clean' })
      .expect(403);
  });

  it('another hotel: 403 on our slug, 404 for our ids on theirs, nothing changes', async () => {
    const category = await createCategory(t, owner);
    const room = await createRoom(t, owner, category.id, { notes: 'canary' });
    const theirs = as(other.accessToken);
    await t.http.get(`/api/hotels/${owner.slug}/rooms`).set(theirs).expect(403);
    await t.http.get(`/api/hotels/${owner.slug}/room-categories/${category.id}`).set(theirs).expect(403);
    await t.http.get(`/api/hotels/${other.slug}/rooms/${room.id}`).set(theirs).expect(404);
    await t.http.patch(`/api/hotels/${other.slug}/rooms/${room.id}`).set(theirs).send({ notes: 'pwned' }).expect(404);
    await t.http
      .patch(`/api/hotels/${other.slug}/rooms/${room.id}/status`)
      .set(theirs)
      .send({ status: 'closed' })
      .expect(404);
    await t.http.delete(`/api/hotels/${other.slug}/room-categories/${category.id}`).set(theirs).expect(404);
    expect(await t.db('rooms').where({ id: room.id }).first()).toMatchObject({ notes: 'canary', status: 'clean' });
  });
});
