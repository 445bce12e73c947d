import { as, registerHotel, type RegisteredHotel } from '../helpers/accounts';
import {
  connectStaff,
  startTestServer,
  type RealtimeMessage,
  type StaffClient,
  type TestServer,
} from '../helpers/realtime';
import { createCategory, createRoom } from '../helpers/structure';

let t: TestServer;
let owner: RegisteredHotel;
let other: RegisteredHotel;
let desk: StaffClient;
let stranger: StaffClient;

beforeAll(async () => {
  t = await startTestServer();
  [owner, other] = await Promise.all([registerHotel(t), registerHotel(t)]);
  desk = await connectStaff(t.wsUrl, owner.accessToken);
  stranger = await connectStaff(t.wsUrl, other.accessToken);
});
afterAll(async () => {
  await desk.close();
  await stranger.close();
  await t.close();
});

const ofType = (type: string) => (message: RealtimeMessage) => message.type === type;

/** A maintenance task without a room: a committed change whose one event marks a point in the hotel's stream. */
async function createTask(hotel: RegisteredHotel): Promise<{ id: string }> {
  const response = await t.http
    .post(`/api/hotels/${hotel.slug}/housekeeping`)
    .set(as(hotel.accessToken))
    .send({ category: 'maintenance' })
    .expect(201);
  return response.body as { id: string };
}

describe('housekeeping realtime events', () => {
  it('the desk sees a task created, started and done, and the room board follow, without reloading', async () => {
    const category = await createCategory(t, owner);
    const room = await createRoom(t, owner, category.id);
    const api = `/api/hotels/${owner.slug}/housekeeping`;
    const task = (
      await t.http
        .post(api)
        .set(as(owner.accessToken))
        .send({ room_id: room.id, category: 'housekeeping', priority: 'urgent' })
        .expect(201)
    ).body;

    expect(await desk.next(ofType('housekeeping_task_created'))).toEqual({
      id: expect.any(Number),
      type: 'housekeeping_task_created',
      payload: {
        task_id: task.id,
        room_id: room.id,
        category: 'housekeeping',
        priority: 'urgent',
        status: 'pending',
        assignee_id: null,
      },
    });

    await t.http.patch(`${api}/${task.id}`).set(as(owner.accessToken)).send({ status: 'in_progress' }).expect(200);
    expect(await desk.next(ofType('room_updated'))).toMatchObject({
      payload: { room_id: room.id, status: 'cleaning' },
    });
    expect(await desk.next(ofType('housekeeping_updated'))).toEqual({
      id: expect.any(Number),
      type: 'housekeeping_updated',
      payload: { task_id: task.id, room_id: room.id, changes: { status: 'in_progress' } },
    });

    await t.http.patch(`${api}/${task.id}`).set(as(owner.accessToken)).send({ status: 'done' }).expect(200);
    expect(await desk.next(ofType('room_updated'))).toMatchObject({ payload: { room_id: room.id, status: 'clean' } });
    expect(await desk.next(ofType('housekeeping_done'))).toEqual({
      id: expect.any(Number),
      type: 'housekeeping_done',
      payload: { task_id: task.id, room_id: room.id, room_status: 'clean' },
    });
  });

  it('an emergency closure and a manual status change reach the board as room_updated', async () => {
    const category = await createCategory(t, owner);
    const room = await createRoom(t, owner, category.id);
    await t.http
      .post(`/api/hotels/${owner.slug}/housekeeping`)
      .set(as(owner.accessToken))
      .send({ room_id: room.id, category: 'maintenance', priority: 'urgent' })
      .expect(201);
    const closure = await desk.next((m) => m.type === 'room_updated' && m.payload?.room_id === room.id);
    expect(closure.payload).toMatchObject({
      status: 'maintenance',
      maintenance_from: expect.any(String),
      maintenance_to: expect.any(String),
    });

    await t.http
      .patch(`/api/hotels/${owner.slug}/rooms/${room.id}/status`)
      .set(as(owner.accessToken))
      .send({ status: 'closed' })
      .expect(200);
    expect(await desk.next((m) => m.type === 'room_updated' && m.payload?.room_id === room.id)).toMatchObject({
      payload: { status: 'closed' },
    });
  });

  it('a refused change emits nothing, and another hotel never hears ours', async () => {
    const category = await createCategory(t, owner, { name: `Чек ${Date.now()}` });
    await t.http
      .post(`/api/hotels/${owner.slug}/checklist-templates`)
      .set(as(owner.accessToken))
      .send({
        name: `Шаблон ${category.id.slice(0, 6)}`,
        task_category: 'housekeeping',
        room_category_id: category.id,
        items: ['Проверить'],
      })
      .expect(201);
    const room = await createRoom(t, owner, category.id);
    const task = (
      await t.http
        .post(`/api/hotels/${owner.slug}/housekeeping`)
        .set(as(owner.accessToken))
        .send({ room_id: room.id, category: 'housekeeping' })
        .expect(201)
    ).body;
    await desk.next((m) => m.type === 'housekeeping_task_created' && m.payload?.task_id === task.id);
    const seen = desk.collected.length;
    await t.http
      .patch(`/api/hotels/${owner.slug}/housekeeping/${task.id}`)
      .set(as(owner.accessToken))
      .send({ status: 'done' })
      .expect(422);
    // Events are sent in commit order: once a change committed after the refused one has reached the desk, an event
    // of the refused one would have arrived before it; and once the other hotel's change, committed later still, has
    // reached its own socket, any of ours sent there would have arrived before that.
    const later = await createTask(owner);
    await desk.next((m) => m.type === 'housekeeping_task_created' && m.payload?.task_id === later.id);
    const theirs = await createTask(other);
    await stranger.next((m) => m.type === 'housekeeping_task_created' && m.payload?.task_id === theirs.id);
    expect(desk.collected.slice(seen).filter((m) => m.payload?.task_id === task.id)).toEqual([]);
    expect(
      stranger.collected.some(
        (m) => JSON.stringify(m).includes(owner.hotelId) || [task.id, later.id].includes(m.payload?.task_id as string),
      ),
    ).toBe(false);
    expect(stranger.collected.filter((m) => m.type !== 'connected').every((m) => m.payload?.room_id === null)).toBe(
      true,
    );
  });
});
