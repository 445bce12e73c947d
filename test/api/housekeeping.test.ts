import { createTestApp, type TestApp } from '../helpers/app';
import { addStaff, as, registerHotel, type RegisteredHotel } from '../helpers/accounts';
import { createCategory, createRoom, uploadPhoto } from '../helpers/structure';
import { problem } from '../helpers/problem';

let t: TestApp;
let owner: RegisteredHotel;
let other: RegisteredHotel;
beforeAll(async () => {
  t = createTestApp();
  [owner, other] = await Promise.all([registerHotel(t), registerHotel(t)]);
});
afterAll(() => t.close());

const api = (hotel: RegisteredHotel, path: string) => `/api/hotels/${hotel.slug}${path}`;

async function newRoom(hotel = owner) {
  const category = await createCategory(t, hotel);
  return createRoom(t, hotel, category.id);
}

async function createTask(body: Record<string, unknown>, token = owner.accessToken) {
  const response = await t.http.post(api(owner, '/housekeeping')).set(as(token)).send(body).expect(201);
  return response.body;
}

const patchTask = (id: string, body: Record<string, unknown>, token = owner.accessToken) =>
  t.http
    .patch(api(owner, `/housekeeping/${id}`))
    .set(as(token))
    .send(body);

const roomStatus = async (id: string) => (await t.db('rooms').where({ id }).first()).status;

describe('task life cycle and the room board', () => {
  it('in_progress shows the room as cleaning; done makes it clean, with started_at and completed_at', async () => {
    const room = await newRoom();
    const task = await createTask({
      room_id: room.id,
      category: 'housekeeping',
      priority: 'low',
      notes: 'Смена белья',
    });
    expect(task).toMatchObject({ status: 'pending', category: 'housekeeping', priority: 'low', started_at: null });

    const started = await patchTask(task.id, { status: 'in_progress' }).expect(200);
    expect(started.body.started_at).not.toBeNull();
    expect(await roomStatus(room.id)).toBe('cleaning');

    const done = await patchTask(task.id, { status: 'done' }).expect(200);
    expect(done.body.completed_at).not.toBeNull();
    expect(await roomStatus(room.id)).toBe('clean');
  });

  it('done makes the room inspect when inspection_after_clean is on', async () => {
    const hotel = await registerHotel(t);
    await t.http
      .patch(api(hotel, '/housekeeping-settings'))
      .set(as(hotel.accessToken))
      .send({ inspection_after_clean: true })
      .expect(200);
    const room = await newRoom(hotel);
    const task = await t.http
      .post(api(hotel, '/housekeeping'))
      .set(as(hotel.accessToken))
      .send({ room_id: room.id, category: 'housekeeping' })
      .expect(201);
    await t.http
      .patch(api(hotel, `/housekeeping/${task.body.id}`))
      .set(as(hotel.accessToken))
      .send({ status: 'done' })
      .expect(200);
    expect(await roomStatus(room.id)).toBe('inspect');
  });

  it('an abandoned clean leaves the room dirty; final statuses stay final (422)', async () => {
    const room = await newRoom();
    const task = await createTask({ room_id: room.id, category: 'housekeeping' });
    await patchTask(task.id, { status: 'in_progress' }).expect(200);
    await patchTask(task.id, { status: 'cancelled' }).expect(200);
    expect(await roomStatus(room.id)).toBe('dirty');
    const refused = await patchTask(task.id, { status: 'in_progress' }).expect(422);
    expect(refused.body.error).toBe('Недопустимый переход статуса: cancelled → in_progress');
    await patchTask(task.id, { status: 'sleeping' }).expect(400);
  });

  it('an urgent maintenance task closes the room for emergency_close_days; finishing it leaves the room dirty', async () => {
    const hotel = await registerHotel(t);
    await t.http
      .patch(api(hotel, '/housekeeping-settings'))
      .set(as(hotel.accessToken))
      .send({ emergency_close_days: 3 })
      .expect(200);
    const room = await newRoom(hotel);
    const before = Date.now();
    const task = await t.http
      .post(api(hotel, '/housekeeping'))
      .set(as(hotel.accessToken))
      .send({ room_id: room.id, category: 'maintenance', priority: 'urgent', notes: 'Течёт кран' })
      .expect(201);
    const closed = await t.db('rooms').where({ id: room.id }).first();
    expect(closed.status).toBe('maintenance');
    const days = (closed.maintenance_to.getTime() - closed.maintenance_from.getTime()) / 86_400_000;
    expect(days).toBeCloseTo(3, 5);
    expect(closed.maintenance_from.getTime()).toBeGreaterThanOrEqual(before - 1000);

    await t.http
      .patch(api(hotel, `/housekeeping/${task.body.id}`))
      .set(as(hotel.accessToken))
      .send({ status: 'done' })
      .expect(200);
    const reopened = await t.db('rooms').where({ id: room.id }).first();
    expect(reopened.status).toBe('dirty');
    expect(reopened.maintenance_to.getTime()).toBeLessThanOrEqual(Date.now());
  });

  it('a non-urgent maintenance task leaves the room as it is', async () => {
    const room = await newRoom();
    await createTask({ room_id: room.id, category: 'maintenance', priority: 'medium' });
    expect(await roomStatus(room.id)).toBe('clean');
  });

  it('a maintenance task in progress shows its room as cleaning, like any task; done leaves it dirty and reopened', async () => {
    const room = await newRoom();
    const repair = await createTask({ room_id: room.id, category: 'maintenance', priority: 'urgent' });
    expect(await roomStatus(room.id)).toBe('maintenance');
    await patchTask(repair.id, { status: 'in_progress' }).expect(200);
    expect(await roomStatus(room.id)).toBe('cleaning');
    await patchTask(repair.id, { status: 'done' }).expect(200);
    const reopened = await t.db('rooms').where({ id: room.id }).first();
    expect(reopened.status).toBe('dirty');
    expect(reopened.maintenance_to.getTime()).toBeLessThanOrEqual(Date.now());
  });

  it('a repair put down shows the room under maintenance while its closure runs, dirty otherwise', async () => {
    const closed = await newRoom();
    const urgent = await createTask({ room_id: closed.id, category: 'maintenance', priority: 'urgent' });
    await patchTask(urgent.id, { status: 'in_progress' }).expect(200);
    await patchTask(urgent.id, { status: 'pending' }).expect(200);
    expect(await roomStatus(closed.id)).toBe('maintenance');

    const open = await newRoom();
    const minor = await createTask({ room_id: open.id, category: 'maintenance', priority: 'low' });
    await patchTask(minor.id, { status: 'in_progress' }).expect(200);
    expect(await roomStatus(open.id)).toBe('cleaning');
    await patchTask(minor.id, { status: 'cancelled' }).expect(200);
    expect(await roomStatus(open.id)).toBe('dirty');
  });
});

describe('completion rules', () => {
  it('refuses completion with 422 and an errors list while the checklist is open; ticking items records who and when', async () => {
    const category = await createCategory(t, owner);
    await t.http
      .post(api(owner, '/checklist-templates'))
      .set(as(owner.accessToken))
      .send({
        name: `Уборка ${category.id.slice(0, 5)}`,
        task_category: 'housekeeping',
        room_category_id: category.id,
        items: ['Пропылесосить', 'Заменить полотенца'],
      })
      .expect(201);
    const room = await createRoom(t, owner, category.id);
    const maid = await addStaff(t, owner, 'housekeeper');
    const task = await createTask({ room_id: room.id, category: 'housekeeping', assignee_id: maid.id });
    const detail = await t.http
      .get(api(owner, `/housekeeping/${task.id}`))
      .set(as(maid.accessToken))
      .expect(200);
    expect(detail.body.checklist.map((i: { text: string }) => i.text)).toEqual(['Пропылесосить', 'Заменить полотенца']);

    const refused = await patchTask(task.id, { status: 'done' }, maid.accessToken).expect(422);
    expect(refused.body).toEqual(
      problem(422, 'business_rule', 'Задачу нельзя завершить', {
        errors: ['Не выполнены пункты чек-листа: Пропылесосить, Заменить полотенца'],
      }),
    );
    expect((await t.db('housekeeping_tasks').where({ id: task.id }).first()).status).toBe('pending');

    for (const item of detail.body.checklist) {
      const ticked = await t.http
        .patch(api(owner, `/housekeeping/${task.id}/checklist/${item.id}`))
        .set(as(maid.accessToken))
        .send({ done: true })
        .expect(200);
      expect(ticked.body).toMatchObject({ completed_by: maid.id });
      expect(ticked.body.completed_at).not.toBeNull();
    }
    await patchTask(task.id, { status: 'done' }, maid.accessToken).expect(200);
  });

  it('a general template applies when no template matches the room category', async () => {
    const hotel = await registerHotel(t);
    await t.http
      .post(api(hotel, '/checklist-templates'))
      .set(as(hotel.accessToken))
      .send({ name: 'Общий ремонт', task_category: 'maintenance', items: ['Проверить результат'] })
      .expect(201);
    const room = await newRoom(hotel);
    const task = await t.http
      .post(api(hotel, '/housekeeping'))
      .set(as(hotel.accessToken))
      .send({ room_id: room.id, category: 'maintenance' })
      .expect(201);
    const detail = await t.http
      .get(api(hotel, `/housekeeping/${task.body.id}`))
      .set(as(hotel.accessToken))
      .expect(200);
    expect(detail.body.checklist.map((i: { text: string }) => i.text)).toEqual(['Проверить результат']);
  });

  it('a maintenance task needs a resolution photo when require_completion_photo is on', async () => {
    const hotel = await registerHotel(t);
    await t.http
      .patch(api(hotel, '/housekeeping-settings'))
      .set(as(hotel.accessToken))
      .send({ require_completion_photo: true })
      .expect(200);
    const task = await t.http
      .post(api(hotel, '/housekeeping'))
      .set(as(hotel.accessToken))
      .send({ category: 'maintenance' })
      .expect(201);
    const path = api(hotel, `/housekeeping/${task.body.id}`);
    const refused = await t.http.patch(path).set(as(hotel.accessToken)).send({ status: 'done' }).expect(422);
    expect(refused.body.errors).toEqual(['Для завершения ремонта нужна фотография результата']);
    await t.http
      .patch(path)
      .set(as(hotel.accessToken))
      .send({
        status: 'done',
        resolution_notes: 'Заменён смеситель',
        resolution_photos: ['https://elsewhere.example/x.jpg'],
      })
      .expect(400);
    const done = await t.http
      .patch(path)
      .set(as(hotel.accessToken))
      .send({
        status: 'done',
        resolution_notes: 'Заменён смеситель',
        resolution_photos: [await uploadPhoto(t, hotel, 'tasks')],
      })
      .expect(200);
    expect(done.body).toMatchObject({ status: 'done', resolution_notes: 'Заменён смеситель' });
  });
});

describe('automatic assignment', () => {
  async function hotelWithStrategy(strategy: string, housekeepers: number) {
    const hotel = await registerHotel(t);
    await t.http
      .patch(api(hotel, '/housekeeping-settings'))
      .set(as(hotel.accessToken))
      .send({ auto_assign_strategy: strategy })
      .expect(200);
    const staff = [];
    for (let i = 0; i < housekeepers; i++) {
      const created = await t.http
        .post(api(hotel, '/users'))
        .set(as(hotel.accessToken))
        .send({
          name: `Горничная ${String.fromCharCode(65 + i)}`,
          email: `maid-${i}-${Date.now()}-${Math.random()}@example.test`,
          role: 'housekeeper',
          password: 'maidpass1',
        })
        .expect(201);
      staff.push(created.body.id as string);
    }
    // A technician and an inactive housekeeper are never picked for housekeeping.
    await t.http
      .post(api(hotel, '/users'))
      .set(as(hotel.accessToken))
      .send({
        name: 'Aaa техник',
        email: `tech-${Date.now()}-${Math.random()}@example.test`,
        role: 'technician',
        password: 'techpass1',
      })
      .expect(201);
    await t.http
      .post(api(hotel, '/users'))
      .set(as(hotel.accessToken))
      .send({ name: 'Aaa приглашённая', email: `inv-${Date.now()}-${Math.random()}@example.test`, role: 'housekeeper' })
      .expect(201);
    const create = async () =>
      (
        await t.http
          .post(api(hotel, '/housekeeping'))
          .set(as(hotel.accessToken))
          .send({ category: 'housekeeping' })
          .expect(201)
      ).body;
    return { hotel, staff, create };
  }

  it('round_robin goes through the housekeepers in order and wraps', async () => {
    const { staff, create } = await hotelWithStrategy('round_robin', 3);
    const picks = [];
    for (let i = 0; i < 5; i++) picks.push((await create()).assignee_id);
    expect(picks).toEqual([staff[0], staff[1], staff[2], staff[0], staff[1]]);
  });

  it('least_loaded picks whoever has the fewest open tasks', async () => {
    const { hotel, staff, create } = await hotelWithStrategy('least_loaded', 3);
    // Load A with two tasks and B with one by hand.
    for (const assignee of [staff[0], staff[0], staff[1]]) {
      await t.http
        .post(api(hotel, '/housekeeping'))
        .set(as(hotel.accessToken))
        .send({ category: 'housekeeping', assignee_id: assignee })
        .expect(201);
    }
    expect((await create()).assignee_id).toBe(staff[2]);
    expect((await create()).assignee_id).toBe(staff[1]);
    const third = await create();
    expect([staff[1], staff[2]]).toContain(third.assignee_id);
    expect(third.auto_assigned).toBe(true);
  });

  it('first_free picks the first housekeeper without open tasks, then the least loaded', async () => {
    const { hotel, staff, create } = await hotelWithStrategy('first_free', 2);
    await t.http
      .post(api(hotel, '/housekeeping'))
      .set(as(hotel.accessToken))
      .send({ category: 'housekeeping', assignee_id: staff[0] })
      .expect(201);
    expect((await create()).assignee_id).toBe(staff[1]);
    // Nobody is free now: A has 1, B has 1 -> the least loaded in order is A.
    expect((await create()).assignee_id).toBe(staff[0]);
  });

  it('concurrent creations under round_robin never give two tasks to the same person in one round', async () => {
    const { staff, create } = await hotelWithStrategy('round_robin', 3);
    const tasks = await Promise.all([create(), create(), create()]);
    expect(new Set(tasks.map((task) => task.assignee_id))).toEqual(new Set(staff));
  });

  it('without a strategy tasks stay unassigned', async () => {
    const task = await createTask({ category: 'housekeeping' });
    expect(task).toMatchObject({ assignee_id: null, auto_assigned: false });
  });
});

describe('who sees and does what', () => {
  it('housekeepers see their tasks and open housekeeping tasks, take one by starting it, and cannot reassign', async () => {
    const maid = await addStaff(t, owner, 'housekeeper');
    const colleague = await addStaff(t, owner, 'housekeeper');
    const room = await newRoom();
    const mine = await createTask({ room_id: room.id, category: 'housekeeping', assignee_id: maid.id });
    const theirs = await createTask({ category: 'housekeeping', assignee_id: colleague.id });
    const open = await createTask({ category: 'housekeeping' });
    const repair = await createTask({ category: 'maintenance' });

    const list = await t.http.get(api(owner, '/housekeeping')).set(as(maid.accessToken)).expect(200);
    const ids = list.body.map((task: { id: string }) => task.id);
    expect(ids).toEqual(expect.arrayContaining([mine.id, open.id]));
    expect(ids).not.toContain(theirs.id);
    expect(ids).not.toContain(repair.id);
    await t.http
      .get(api(owner, `/housekeeping/${theirs.id}`))
      .set(as(maid.accessToken))
      .expect(404);
    await patchTask(theirs.id, { status: 'in_progress' }, maid.accessToken).expect(404);

    const taken = await patchTask(open.id, { status: 'in_progress' }, maid.accessToken).expect(200);
    expect(taken.body.assignee_id).toBe(maid.id);
    await patchTask(mine.id, { assignee_id: colleague.id }, maid.accessToken).expect(403);
    await patchTask(mine.id, { priority: 'urgent' }, maid.accessToken).expect(403);
    await patchTask(mine.id, { notes: 'Гость просил не беспокоить до 12' }, maid.accessToken).expect(200);
  });

  it('technicians work maintenance; accountants have no access; security may report', async () => {
    const tech = await addStaff(t, owner, 'technician');
    const accountant = await addStaff(t, owner, 'accountant');
    const guard = await addStaff(t, owner, 'security');
    const repair = await createTask({ category: 'maintenance' }, guard.accessToken);
    const list = await t.http
      .get(api(owner, '/housekeeping?category=maintenance'))
      .set(as(tech.accessToken))
      .expect(200);
    expect(list.body.map((task: { id: string }) => task.id)).toContain(repair.id);
    await t.http.get(api(owner, '/housekeeping')).set(as(accountant.accessToken)).expect(403);
    await t.http.get(api(owner, '/housekeeping')).set(as(guard.accessToken)).expect(403);
  });

  it('filters by category, room, status, assignee and hotel-local date', async () => {
    const room = await newRoom();
    const task = await createTask({ room_id: room.id, category: 'maintenance', priority: 'low' });
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Moscow' }).format(new Date());
    const found = await t.http
      .get(
        api(owner, `/housekeeping?room_id=${room.id}&category=maintenance&status=pending&priority=low&date=${today}`),
      )
      .set(as(owner.accessToken))
      .expect(200);
    expect(found.body.map((x: { id: string }) => x.id)).toEqual([task.id]);
    const yesterday = await t.http
      .get(api(owner, `/housekeeping?room_id=${room.id}&date=2020-01-01`))
      .set(as(owner.accessToken))
      .expect(200);
    expect(yesterday.body).toEqual([]);
  });

  it('another hotel: 403 on our routes, 404 for our task through theirs, and our rooms cannot be used', async () => {
    const room = await newRoom();
    const task = await createTask({ room_id: room.id, category: 'housekeeping', notes: 'canary' });
    await t.http.get(api(owner, '/housekeeping')).set(as(other.accessToken)).expect(403);
    await t.http
      .patch(api(other, `/housekeeping/${task.id}`))
      .set(as(other.accessToken))
      .send({ status: 'done' })
      .expect(404);
    await t.http
      .post(api(other, '/housekeeping'))
      .set(as(other.accessToken))
      .send({ room_id: room.id, category: 'maintenance', priority: 'urgent' })
      .expect(400);
    expect(await roomStatus(room.id)).toBe('clean');
    const maid = await addStaff(t, owner, 'housekeeper');
    await t.http
      .post(api(other, '/housekeeping'))
      .set(as(other.accessToken))
      .send({ category: 'housekeeping', assignee_id: maid.id })
      .expect(400);
    expect((await t.db('housekeeping_tasks').where({ id: task.id }).first()).status).toBe('pending');
  });
});

describe('settings and templates', () => {
  it('settings have the spec defaults and validate', async () => {
    const hotel = await registerHotel(t);
    const settings = await t.http.get(api(hotel, '/housekeeping-settings')).set(as(hotel.accessToken)).expect(200);
    expect(settings.body).toMatchObject({
      checkout_auto: true,
      checkout_priority: 'medium',
      inspection_after_clean: false,
      require_completion_photo: false,
      emergency_close_days: 1,
      auto_assign_strategy: null,
    });
    await t.http
      .patch(api(hotel, '/housekeeping-settings'))
      .set(as(hotel.accessToken))
      .send({ emergency_close_days: 0 })
      .expect(400);
    await t.http
      .patch(api(hotel, '/housekeeping-settings'))
      .set(as(hotel.accessToken))
      .send({ auto_assign_strategy: 'lottery' })
      .expect(400);
    const maid = await addStaff(t, hotel, 'housekeeper');
    await t.http
      .patch(api(hotel, '/housekeeping-settings'))
      .set(as(maid.accessToken))
      .send({ checkout_auto: false })
      .expect(403);
  });

  it("templates: CRUD with items; 409 for a duplicate name; another hotel's room category is refused", async () => {
    const theirs = await createCategory(t, other);
    const created = await t.http
      .post(api(owner, '/checklist-templates'))
      .set(as(owner.accessToken))
      .send({ name: `Шаблон ${Date.now()}`, task_category: 'housekeeping', items: ['A', 'B'] })
      .expect(201);
    expect(created.body.items).toEqual(['A', 'B']);
    const updated = await t.http
      .patch(api(owner, `/checklist-templates/${created.body.id}`))
      .set(as(owner.accessToken))
      .send({ items: ['C'] })
      .expect(200);
    expect(updated.body.items).toEqual(['C']);
    await t.http
      .post(api(owner, '/checklist-templates'))
      .set(as(owner.accessToken))
      .send({ name: created.body.name, task_category: 'housekeeping', items: [] })
      .expect(409);
    await t.http
      .post(api(owner, '/checklist-templates'))
      .set(as(owner.accessToken))
      .send({ name: 'Чужой', task_category: 'housekeeping', room_category_id: theirs.id, items: ['x'] })
      .expect(400);
    await t.http
      .delete(api(owner, `/checklist-templates/${created.body.id}`))
      .set(as(owner.accessToken))
      .expect(200);
  });
});

describe('minibar check and the turnover clean', () => {
  it('a checkout turnover task makes the room dirty and requires a minibar check when the hotel sells minibar items', async () => {
    const hotel = await registerHotel(t);
    await t.http
      .patch(api(hotel, '/housekeeping-settings'))
      .set(as(hotel.accessToken))
      .send({ checkout_priority: 'urgent' })
      .expect(200);
    const cola = await t.http
      .post(api(hotel, '/minibar-items'))
      .set(as(hotel.accessToken))
      .send({ name: 'Кола', category: 'напитки', price: 150 })
      .expect(201);
    await t.http
      .post(api(hotel, '/minibar/stock'))
      .set(as(hotel.accessToken))
      .send({ item_id: cola.body.id, kind: 'receipt', quantity: 10 })
      .expect(201);
    const room = await newRoom(hotel);
    const { housekeeping } = t.services;
    const task = await t.db.transaction((trx) => housekeeping.createTurnoverTask(trx, hotel.hotelId, room.id));
    expect(task).toMatchObject({
      source: 'checkout',
      priority: 'urgent',
      requires_minibar_check: true,
      room_id: room.id,
    });
    expect(await roomStatus(room.id)).toBe('dirty');

    const path = api(hotel, `/housekeeping/${task!.id}`);
    const refused = await t.http.patch(path).set(as(hotel.accessToken)).send({ status: 'done' }).expect(422);
    expect(refused.body.errors).toEqual(['Не выполнена проверка минибара']);

    const check = { items: [{ item_id: cola.body.id, quantity: 2 }] };
    const first = await t.http.put(`${path}/minibar`).set(as(hotel.accessToken)).send(check).expect(200);
    expect(first.body).toEqual([
      expect.objectContaining({ item_id: cola.body.id, quantity: 2, price_per_unit: '150.00' }),
    ]);
    // The same request again (a retry) counts nothing twice.
    await t.http.put(`${path}/minibar`).set(as(hotel.accessToken)).send(check).expect(200);
    const stock = await t.http.get(api(hotel, '/minibar/stock')).set(as(hotel.accessToken)).expect(200);
    expect(stock.body.find((s: { item_id: string }) => s.item_id === cola.body.id).quantity).toBe(8);

    await t.http.patch(path).set(as(hotel.accessToken)).send({ status: 'done' }).expect(200);
    expect(await roomStatus(room.id)).toBe('clean');
    const recorded = await t.http.get(`${path}/minibar`).set(as(hotel.accessToken)).expect(200);
    expect(recorded.body).toHaveLength(1);
  });

  it('no turnover task when checkout_auto is off', async () => {
    const hotel = await registerHotel(t);
    await t.http
      .patch(api(hotel, '/housekeeping-settings'))
      .set(as(hotel.accessToken))
      .send({ checkout_auto: false })
      .expect(200);
    const room = await newRoom(hotel);
    const { housekeeping } = t.services;
    expect(
      await t.db.transaction((trx) => housekeeping.createTurnoverTask(trx, hotel.hotelId, room.id)),
    ).toBeUndefined();
    expect(await roomStatus(room.id)).toBe('clean');
  });

  it('a task without a room has no minibar check (422)', async () => {
    const task = await createTask({ category: 'housekeeping' });
    await t.http
      .put(api(owner, `/housekeeping/${task.id}/minibar`))
      .set(as(owner.accessToken))
      .send({ items: [] })
      .expect(422);
  });
});
