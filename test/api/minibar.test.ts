import { randomUUID } from 'node:crypto';
import type { MinibarCheckLine } from '../../src/modules/minibar';
import { ValidationError } from '../../src/platform/errors';
import { createTestApp, type TestApp } from '../helpers/app';
import { addStaff, as, registerHotel, type RegisteredHotel } from '../helpers/accounts';
import { createCategory, createRoom } from '../helpers/structure';

let t: TestApp;
let owner: RegisteredHotel;
let other: RegisteredHotel;
beforeAll(async () => {
  t = createTestApp();
  [owner, other] = await Promise.all([registerHotel(t), registerHotel(t)]);
});
afterAll(() => t.close());

const unique = (label: string) => `${label} ${randomUUID().slice(0, 8)}`;

async function createItem(hotel: RegisteredHotel, body: Record<string, unknown> = {}) {
  const response = await t.http
    .post(`/api/hotels/${hotel.slug}/minibar-items`)
    .set(as(hotel.accessToken))
    .send({ name: unique('Item'), price: 100, ...body })
    .expect(201);
  return response.body as { id: string; name: string; price: string };
}

function postMovement(hotel: RegisteredHotel, body: Record<string, unknown>, token = hotel.accessToken) {
  return t.http.post(`/api/hotels/${hotel.slug}/minibar/stock`).set(as(token)).send(body);
}

async function stockOf(itemId: string, hotel = owner): Promise<number> {
  const response = await t.http.get(`/api/hotels/${hotel.slug}/minibar/stock`).set(as(hotel.accessToken)).expect(200);
  const level = response.body.find((row: { item_id: string }) => row.item_id === itemId);
  if (!level) throw new Error(`no stock row for ${itemId}`);
  return level.quantity;
}

function dayOffset(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

describe('minibar items', () => {
  it('create, read, list with filters, update, delete; prices go out as strings', async () => {
    const category = unique('Напитки');
    const created = await t.http
      .post(`/api/hotels/${owner.slug}/minibar-items`)
      .set(as(owner.accessToken))
      .send({ name: unique('Кола'), category, price: 150.5, sort_order: 2 })
      .expect(201);
    expect(created.body).toMatchObject({ category, price: '150.50', is_active: true, sort_order: 2 });
    const id = created.body.id;
    const snack = await createItem(owner, { category, is_active: false });
    await createItem(owner, { category: unique('Снеки') });

    const byCategory = await t.http
      .get(`/api/hotels/${owner.slug}/minibar-items`)
      .query({ category })
      .set(as(owner.accessToken))
      .expect(200);
    expect(byCategory.body.map((i: { id: string }) => i.id).sort()).toEqual([id, snack.id].sort());
    const active = await t.http
      .get(`/api/hotels/${owner.slug}/minibar-items`)
      .query({ category, is_active: true })
      .set(as(owner.accessToken))
      .expect(200);
    expect(active.body.map((i: { id: string }) => i.id)).toEqual([id]);

    await t.http.get(`/api/hotels/${owner.slug}/minibar-items/${id}`).set(as(owner.accessToken)).expect(200);
    const updated = await t.http
      .patch(`/api/hotels/${owner.slug}/minibar-items/${id}`)
      .set(as(owner.accessToken))
      .send({ price: '180', is_active: false })
      .expect(200);
    expect(updated.body).toMatchObject({ price: '180.00', is_active: false });
    await t.http.delete(`/api/hotels/${owner.slug}/minibar-items/${id}`).set(as(owner.accessToken)).expect(200);
    await t.http.get(`/api/hotels/${owner.slug}/minibar-items/${id}`).set(as(owner.accessToken)).expect(404);
  });

  it('409 for a duplicate name (create and rename); the same name is fine in another hotel', async () => {
    const item = await createItem(owner);
    const clash = await t.http
      .post(`/api/hotels/${owner.slug}/minibar-items`)
      .set(as(owner.accessToken))
      .send({ name: item.name, price: 1 })
      .expect(409);
    expect(clash.body.error).toBe('Позиция мини-бара с таким названием уже существует');
    const second = await createItem(owner);
    await t.http
      .patch(`/api/hotels/${owner.slug}/minibar-items/${second.id}`)
      .set(as(owner.accessToken))
      .send({ name: item.name })
      .expect(409);
    await createItem(other, { name: item.name });
  });

  it.each([
    [{ price: 100 }, 'body.name'],
    [{ name: 'X' }, 'body.price'],
    [{ name: 'X', price: -1 }, 'body.price'],
    [{ name: 'X', price: '1.005' }, 'body.price'],
    [{ name: '', price: 1 }, 'body.name'],
    [{ name: 'X', price: 1, is_active: 'maybe' }, 'body.is_active'],
  ])('400 for %j', async (body, path) => {
    const response = await t.http
      .post(`/api/hotels/${owner.slug}/minibar-items`)
      .set(as(owner.accessToken))
      .send(body)
      .expect(400);
    expect(response.body.details.map((d: { path: string }) => d.path)).toContain(path);
  });

  it('400 for an empty update; 404 for an unknown id', async () => {
    const item = await createItem(owner);
    await t.http
      .patch(`/api/hotels/${owner.slug}/minibar-items/${item.id}`)
      .set(as(owner.accessToken))
      .send({})
      .expect(400);
    await t.http
      .patch(`/api/hotels/${owner.slug}/minibar-items/${randomUUID()}`)
      .set(as(owner.accessToken))
      .send({ price: 1 })
      .expect(404);
    await t.http.get(`/api/hotels/${owner.slug}/minibar-items/not-a-uuid`).set(as(owner.accessToken)).expect(400);
  });

  it('roles: all staff read, management writes items, housekeepers move stock', async () => {
    const desk = await addStaff(t, owner, 'receptionist');
    const maid = await addStaff(t, owner, 'housekeeper');
    const manager = await addStaff(t, owner, 'manager');
    const item = await createItem(owner);
    await t.http.get(`/api/hotels/${owner.slug}/minibar-items`).set(as(desk.accessToken)).expect(200);
    await t.http.get(`/api/hotels/${owner.slug}/minibar/stock`).set(as(desk.accessToken)).expect(200);
    await t.http
      .post(`/api/hotels/${owner.slug}/minibar-items`)
      .set(as(desk.accessToken))
      .send({ name: unique('Desk'), price: 1 })
      .expect(403);
    await t.http
      .patch(`/api/hotels/${owner.slug}/minibar-items/${item.id}`)
      .set(as(desk.accessToken))
      .send({ price: 1 })
      .expect(403);
    await t.http.delete(`/api/hotels/${owner.slug}/minibar-items/${item.id}`).set(as(desk.accessToken)).expect(403);
    await t.http
      .post(`/api/hotels/${owner.slug}/minibar-items`)
      .set(as(maid.accessToken))
      .send({ name: unique('Maid'), price: 1 })
      .expect(403);
    await t.http
      .post(`/api/hotels/${owner.slug}/minibar-items`)
      .set(as(manager.accessToken))
      .send({ name: unique('Manager'), price: 1 })
      .expect(201);

    const receipt = await postMovement(owner, { item_id: item.id, kind: 'receipt', quantity: 4 }, maid.accessToken);
    expect(receipt.status).toBe(201);
    expect(receipt.body.movement.created_by).toBe(maid.id);
    expect(
      (await postMovement(owner, { item_id: item.id, kind: 'receipt', quantity: 1 }, desk.accessToken)).status,
    ).toBe(403);
    expect(await stockOf(item.id)).toBe(4);
  });
});

describe('minibar stock', () => {
  it('receipts add, write-offs subtract, a count sets the stock and records the difference', async () => {
    const item = await createItem(owner);
    const untouched = await createItem(owner);
    expect(await stockOf(untouched.id)).toBe(0);

    const receipt = await postMovement(owner, { item_id: item.id, kind: 'receipt', quantity: 10, note: 'Поставка' });
    expect(receipt.status).toBe(201);
    expect(receipt.body.movement).toMatchObject({
      item_id: item.id,
      kind: 'receipt',
      quantity: 10,
      counted_quantity: null,
      note: 'Поставка',
      created_by: owner.userId,
      task_id: null,
    });
    expect(receipt.body.stock).toMatchObject({ item_id: item.id, name: item.name, price: '100.00', quantity: 10 });

    const writeOff = await postMovement(owner, { item_id: item.id, kind: 'write_off', quantity: 3 });
    expect(writeOff.status).toBe(201);
    expect(writeOff.body.movement.quantity).toBe(-3);
    expect(writeOff.body.stock.quantity).toBe(7);

    const count = await postMovement(owner, { item_id: item.id, kind: 'inventory', quantity: 5 });
    expect(count.status).toBe(201);
    expect(count.body.movement).toMatchObject({ kind: 'inventory', quantity: -2, counted_quantity: 5 });
    expect(count.body.stock.quantity).toBe(5);
    const matched = await postMovement(owner, { item_id: item.id, kind: 'inventory', quantity: 5 });
    expect(matched.body.movement).toMatchObject({ quantity: 0, counted_quantity: 5 });
    expect(await stockOf(item.id)).toBe(5);

    // Negative stock is allowed (documented): a count corrects it later.
    const over = await postMovement(owner, { item_id: item.id, kind: 'write_off', quantity: 8 });
    expect(over.body.stock.quantity).toBe(-3);
    const recount = await postMovement(owner, { item_id: item.id, kind: 'inventory', quantity: 0 });
    expect(recount.body.movement).toMatchObject({ quantity: 3, counted_quantity: 0 });
    expect(await stockOf(item.id)).toBe(0);

    const movements = await t.http
      .get(`/api/hotels/${owner.slug}/minibar/stock/movements`)
      .query({ item_id: item.id })
      .set(as(owner.accessToken))
      .expect(200);
    expect(movements.body.map((m: { kind: string; quantity: number }) => [m.kind, m.quantity])).toEqual([
      ['inventory', 3],
      ['write_off', -8],
      ['inventory', 0],
      ['inventory', -2],
      ['write_off', -3],
      ['receipt', 10],
    ]);
    const counts = await t.http
      .get(`/api/hotels/${owner.slug}/minibar/stock/movements`)
      .query({ item_id: item.id, kind: 'inventory', from: dayOffset(-2), to: dayOffset(2) })
      .set(as(owner.accessToken))
      .expect(200);
    expect(counts.body).toHaveLength(3);
    const past = await t.http
      .get(`/api/hotels/${owner.slug}/minibar/stock/movements`)
      .query({ item_id: item.id, to: '2020-01-01' })
      .set(as(owner.accessToken))
      .expect(200);
    expect(past.body).toEqual([]);
  });

  it.each([
    [{ kind: 'receipt', quantity: 0 }, 'body.quantity'],
    [{ kind: 'write_off', quantity: -1 }, 'body.quantity'],
    [{ kind: 'inventory', quantity: -1 }, 'body.quantity'],
    [{ kind: 'receipt', quantity: 1.5 }, 'body.quantity'],
    [{ kind: 'consumption', quantity: 1 }, 'body.kind'],
    [{ kind: 'receipt' }, 'body.quantity'],
  ])('400 for movement %j', async (body, path) => {
    const item = await createItem(owner);
    const response = await postMovement(owner, { item_id: item.id, ...body });
    expect(response.status).toBe(400);
    expect(response.body.details.map((d: { path: string }) => d.path)).toContain(path);
    expect(await stockOf(item.id)).toBe(0);
  });

  it('400 for a movement of an unknown item or of another hotel’s item', async () => {
    const theirs = await createItem(other);
    const unknown = await postMovement(owner, { item_id: randomUUID(), kind: 'receipt', quantity: 1 });
    expect(unknown.status).toBe(400);
    const foreign = await postMovement(owner, { item_id: theirs.id, kind: 'receipt', quantity: 1 });
    expect(foreign.status).toBe(400);
    expect(foreign.body.details.map((d: { path: string }) => d.path)).toEqual(['body.item_id']);
    expect(await stockOf(theirs.id, other)).toBe(0);
  });
});

describe('minibar checks (minibar.recordCheck)', () => {
  let roomId: string;
  let otherRoomId: string;
  beforeAll(async () => {
    const category = await createCategory(t, owner);
    roomId = (await createRoom(t, owner, category.id)).id;
    otherRoomId = (await createRoom(t, owner, category.id)).id;
  });

  const check = (taskId: string, items: MinibarCheckLine[], extra: { roomId?: string; hotelId?: string } = {}) =>
    t.db.transaction((trx) =>
      t.services.minibar.recordCheck(trx, extra.hotelId ?? owner.hotelId, {
        taskId,
        roomId: extra.roomId ?? roomId,
        recordedBy: owner.userId,
        items,
      }),
    );

  async function stocked(price: number, quantity = 10) {
    const item = await createItem(owner, { price });
    await postMovement(owner, { item_id: item.id, kind: 'receipt', quantity }).expect(201);
    return item;
  }

  const rowsOf = (taskId: string) =>
    t.db('minibar_consumptions').where({ task_id: taskId }).orderBy('item_id').select('*');
  const movementsOf = (taskId: string) =>
    t.db('stock_movements').where({ task_id: taskId }).orderBy('created_at').select('*');

  it('records consumption at the price of the moment and lowers stock; retries change nothing', async () => {
    const cola = await stocked(150);
    const chips = await stocked(90.5);
    const taskId = randomUUID();

    const first = await check(taskId, [
      { item_id: cola.id, quantity: 2 },
      { item_id: chips.id, quantity: 1 },
    ]);
    expect(first).toHaveLength(2);
    expect(first.find((c) => c.item_id === cola.id)).toMatchObject({
      task_id: taskId,
      room_id: roomId,
      booking_id: null,
      quantity: 2,
      price_per_unit: '150.00',
      amount: '300.00',
      item_name: cola.name,
      recorded_by: owner.userId,
    });
    expect(first.find((c) => c.item_id === chips.id)).toMatchObject({ quantity: 1, price_per_unit: '90.50' });
    expect(await stockOf(cola.id)).toBe(8);
    expect(await stockOf(chips.id)).toBe(9);
    const rowsAfterFirst = await rowsOf(taskId);

    // A later price change does not touch what was recorded.
    await t.http
      .patch(`/api/hotels/${owner.slug}/minibar-items/${cola.id}`)
      .set(as(owner.accessToken))
      .send({ price: 200 })
      .expect(200);

    const same = [
      { item_id: cola.id, quantity: 2 },
      { item_id: chips.id, quantity: 1 },
    ];
    for (let i = 0; i < 3; i++) await check(taskId, same);
    await Promise.all([check(taskId, same), check(taskId, same), check(taskId, same)]);

    expect(await rowsOf(taskId)).toEqual(rowsAfterFirst);
    expect(await stockOf(cola.id)).toBe(8);
    expect(await stockOf(chips.id)).toBe(9);
    expect(await movementsOf(taskId)).toHaveLength(2);
    const recorded = await t.services.minibar.consumptionsForTask(owner.hotelId, taskId);
    expect(recorded.find((c) => c.item_id === cola.id)?.price_per_unit).toBe('150.00');
  });

  it('concurrent first checks of a task record the consumption once', async () => {
    const water = await stocked(60);
    const taskId = randomUUID();
    const items = [{ item_id: water.id, quantity: 3 }];
    await Promise.all([check(taskId, items), check(taskId, items), check(taskId, items), check(taskId, items)]);
    expect(await rowsOf(taskId)).toHaveLength(1);
    expect(await movementsOf(taskId)).toHaveLength(1);
    expect(await stockOf(water.id)).toBe(7);
  });

  it('replaces: a lowered quantity gives stock back, a left-out or zero item is removed, the price stays', async () => {
    const cola = await stocked(150);
    const nuts = await stocked(300);
    const taskId = randomUUID();
    await check(taskId, [
      { item_id: cola.id, quantity: 3 },
      { item_id: nuts.id, quantity: 2 },
    ]);
    expect(await stockOf(cola.id)).toBe(7);
    await t.http
      .patch(`/api/hotels/${owner.slug}/minibar-items/${cola.id}`)
      .set(as(owner.accessToken))
      .send({ price: 175 })
      .expect(200);

    const lowered = await check(taskId, [
      { item_id: cola.id, quantity: 1 },
      { item_id: nuts.id, quantity: 2 },
    ]);
    expect(lowered.find((c) => c.item_id === cola.id)).toMatchObject({ quantity: 1, price_per_unit: '150.00' });
    expect(await stockOf(cola.id)).toBe(9);
    expect(await stockOf(nuts.id)).toBe(8);

    const raised = await check(taskId, [{ item_id: cola.id, quantity: 4 }]);
    expect(raised).toHaveLength(1);
    expect(raised[0]).toMatchObject({ item_id: cola.id, quantity: 4, price_per_unit: '150.00', amount: '600.00' });
    expect(await stockOf(cola.id)).toBe(6);
    expect(await stockOf(nuts.id)).toBe(10);

    expect(await check(taskId, [{ item_id: cola.id, quantity: 0 }])).toEqual([]);
    expect(await stockOf(cola.id)).toBe(10);
    expect(
      (await movementsOf(taskId)).map((m: { item_id: string; quantity: number }) => [
        m.item_id === cola.id ? 'cola' : 'nuts',
        m.quantity,
      ]),
    ).toEqual(
      expect.arrayContaining([
        ['cola', -3],
        ['nuts', -2],
        ['cola', 2],
        ['cola', -3],
        ['nuts', 2],
        ['cola', 4],
      ]),
    );
    expect(await movementsOf(taskId)).toHaveLength(6);
  });

  it("refuses another hotel's, unknown and inactive items with 400, and nothing changes", async () => {
    const cola = await stocked(150);
    const retired = await stocked(50);
    await t.http
      .patch(`/api/hotels/${owner.slug}/minibar-items/${retired.id}`)
      .set(as(owner.accessToken))
      .send({ is_active: false })
      .expect(200);
    const theirs = await createItem(other);
    const taskId = randomUUID();
    await check(taskId, [{ item_id: cola.id, quantity: 1 }]);
    const before = await rowsOf(taskId);
    const unknownId = randomUUID();

    const error = await check(taskId, [
      { item_id: cola.id, quantity: 5 },
      { item_id: theirs.id, quantity: 1 },
      { item_id: unknownId, quantity: 1 },
      { item_id: retired.id, quantity: 1 },
    ]).then(
      () => undefined,
      (e: unknown) => e as ValidationError,
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect(error!.status).toBe(400);
    expect(error!.message).toContain(theirs.id);
    expect(error!.message).toContain(unknownId);
    expect(error!.message).toContain(retired.id);
    expect(error!.details.map((d) => d.path)).toEqual([
      'body.items.1.item_id',
      'body.items.2.item_id',
      'body.items.3.item_id',
    ]);
    expect(await rowsOf(taskId)).toEqual(before);
    expect(await stockOf(cola.id)).toBe(9);
    expect(await stockOf(theirs.id, other)).toBe(0);

    // Another hotel cannot record against our task's rows with its own id either.
    await expect(check(taskId, [], { hotelId: other.hotelId })).resolves.toEqual([]);
    expect(await rowsOf(taskId)).toEqual(before);

    await expect(check(taskId, [{ item_id: 'not-a-uuid', quantity: 1 }])).rejects.toMatchObject({ status: 400 });
    await expect(check(taskId, [{ item_id: cola.id, quantity: -1 }])).rejects.toMatchObject({ status: 400 });
    await expect(
      check(taskId, [
        { item_id: cola.id, quantity: 1 },
        { item_id: cola.id, quantity: 2 },
      ]),
    ).rejects.toMatchObject({ status: 400 });
  });

  it('an item deactivated after it was recorded can still be re-sent; a recorded item cannot be deleted (409)', async () => {
    const cola = await stocked(150);
    const taskId = randomUUID();
    await check(taskId, [{ item_id: cola.id, quantity: 2 }]);
    await t.http
      .patch(`/api/hotels/${owner.slug}/minibar-items/${cola.id}`)
      .set(as(owner.accessToken))
      .send({ is_active: false })
      .expect(200);
    expect(await check(taskId, [{ item_id: cola.id, quantity: 2 }])).toHaveLength(1);
    expect(await stockOf(cola.id)).toBe(8);
    await t.http.delete(`/api/hotels/${owner.slug}/minibar-items/${cola.id}`).set(as(owner.accessToken)).expect(409);
  });

  it('GET /minibar/consumptions lists them, filtered by room, task and dates', async () => {
    const cola = await stocked(150);
    const taskId = randomUUID();
    const otherTaskId = randomUUID();
    await check(taskId, [{ item_id: cola.id, quantity: 2 }]);
    await check(otherTaskId, [{ item_id: cola.id, quantity: 1 }], { roomId: otherRoomId });
    const desk = await addStaff(t, owner, 'receptionist');

    const byTask = await t.http
      .get(`/api/hotels/${owner.slug}/minibar/consumptions`)
      .query({ task_id: taskId })
      .set(as(desk.accessToken))
      .expect(200);
    expect(byTask.body).toEqual([
      expect.objectContaining({
        task_id: taskId,
        room_id: roomId,
        item_id: cola.id,
        item_name: cola.name,
        quantity: 2,
        price_per_unit: '150.00',
        amount: '300.00',
      }),
    ]);
    const byRoom = await t.http
      .get(`/api/hotels/${owner.slug}/minibar/consumptions`)
      .query({ room_id: otherRoomId, from: dayOffset(-2), to: dayOffset(2) })
      .set(as(owner.accessToken))
      .expect(200);
    expect(byRoom.body.map((c: { task_id: string }) => c.task_id)).toEqual([otherTaskId]);
    const past = await t.http
      .get(`/api/hotels/${owner.slug}/minibar/consumptions`)
      .query({ room_id: roomId, to: '2020-01-01' })
      .set(as(owner.accessToken))
      .expect(200);
    expect(past.body).toEqual([]);
    const theirs = await t.http
      .get(`/api/hotels/${other.slug}/minibar/consumptions`)
      .query({ task_id: taskId })
      .set(as(other.accessToken))
      .expect(200);
    expect(theirs.body).toEqual([]);
    await t.http
      .get(`/api/hotels/${owner.slug}/minibar/consumptions`)
      .query({ room_id: 'x' })
      .set(as(owner.accessToken))
      .expect(400);
  });
});

describe('another hotel', () => {
  it('gets 403 on our slug and 404 for our item ids on theirs; nothing changes', async () => {
    const item = await createItem(owner, { price: 42 });
    const theirs = as(other.accessToken);
    const base = `/api/hotels/${owner.slug}`;
    await t.http.get(`${base}/minibar-items`).set(theirs).expect(403);
    await t.http.get(`${base}/minibar-items/${item.id}`).set(theirs).expect(403);
    await t.http.get(`${base}/minibar/stock`).set(theirs).expect(403);
    await t.http.get(`${base}/minibar/stock/movements`).set(theirs).expect(403);
    await t.http.get(`${base}/minibar/consumptions`).set(theirs).expect(403);
    await t.http
      .post(`${base}/minibar/stock`)
      .set(theirs)
      .send({ item_id: item.id, kind: 'receipt', quantity: 1 })
      .expect(403);

    const mine = `/api/hotels/${other.slug}/minibar-items/${item.id}`;
    await t.http.get(mine).set(theirs).expect(404);
    await t.http.patch(mine).set(theirs).send({ price: 0 }).expect(404);
    await t.http.delete(mine).set(theirs).expect(404);
    const stock = await t.http.get(`/api/hotels/${other.slug}/minibar/stock`).set(theirs).expect(200);
    expect(stock.body.map((s: { item_id: string }) => s.item_id)).not.toContain(item.id);
    const movements = await t.http
      .get(`/api/hotels/${other.slug}/minibar/stock/movements`)
      .query({ item_id: item.id })
      .set(theirs)
      .expect(200);
    expect(movements.body).toEqual([]);

    expect(await t.db('minibar_items').where({ id: item.id }).first()).toMatchObject({ price: '42.00' });
    expect(await stockOf(item.id)).toBe(0);
  });
});
