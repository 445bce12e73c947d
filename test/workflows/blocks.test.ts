import { Client, Connection } from '@temporalio/client';
import { as, registerHotel, type RegisteredHotel } from '../helpers/accounts';
import { localDay } from '../helpers/dates';
import { startTestServer, type TestServer } from '../helpers/realtime';
import { readStackInfo } from '../helpers/stack-env';
import { createCategory, createRoom } from '../helpers/structure';
import { until } from '../helpers/wait';
import { outboxWorkflowsAtRest, startedHandle } from '../helpers/workflows';

/** The release of blocks end to end: the API, the outbox relay and the shared worker running `blockRelease`. */

let t: TestServer;
let connection: Connection;
let client: Client;

beforeAll(async () => {
  t = await startTestServer();
  connection = await Connection.connect({ address: readStackInfo().env.TEMPORAL_ADDRESS });
  client = new Client({ connection });
});
afterAll(async () => {
  await connection.close();
  await t.close();
});

const api = (hotel: RegisteredHotel, path: string) => `/api/hotels/${hotel.slug}${path}`;
type Night = { night: string; rooms: number; released: number; picked_up: number; free: number };

async function hotelWithRooms(count: number) {
  const hotel = await registerHotel(t);
  const category = await createCategory(t, hotel, { base_price: 4000 });
  const rooms = [];
  for (let i = 0; i < count; i++) rooms.push(await createRoom(t, hotel, category.id));
  return { hotel, category, rooms };
}

async function createBlock(hotel: RegisteredHotel, body: Record<string, unknown>) {
  const { body: block } = await t.http
    .post(api(hotel, '/blocks'))
    .set(as(hotel.accessToken))
    .send({ name: 'Свадьба', status: 'definite', ...body })
    .expect(201);
  return block as { id: string };
}

/** The block's nights as `night: [rooms, released]`, once `done` says they are as expected. */
async function nightsOnce(hotel: RegisteredHotel, id: string, done: (nights: Night[]) => boolean) {
  return until(
    async () => {
      const { body } = await t.http
        .get(api(hotel, `/blocks/${id}`))
        .set(as(hotel.accessToken))
        .expect(200);
      return done(body.nights) && (body.nights as Night[]);
    },
    { what: 'the release', timeoutMs: 30_000, intervalMs: 200 },
  );
}

const releasedOf = (nights: Night[]) =>
  Object.fromEntries(nights.map((night) => [night.night, [night.rooms, night.released]]));

async function notices(hotel: RegisteredHotel) {
  const { body } = await t.http.get(api(hotel, '/notifications')).set(as(hotel.accessToken)).expect(200);
  return body.items.filter((n: { type: string }) => n.type === 'block_released');
}

const guestName = { guest_last_name: 'Петров', guest_first_name: 'Олег' };

/** A block of one unit on the night `night` days from today, picked up by one stay: the block and the stay's id. */
async function pickedUpBlock(night: number, body: Record<string, unknown>) {
  const { hotel, category } = await hotelWithRooms(2);
  const allotment = [{ category_id: category.id, from: localDay(night), to: localDay(night), rooms: 1 }];
  const block = await createBlock(hotel, { allotment, ...body });
  const stay = { category_id: category.id, check_in: localDay(night), check_out: localDay(night + 1) };
  const { body: picked } = await t.http
    .post(api(hotel, `/blocks/${block.id}/pickup`))
    .set(as(hotel.accessToken))
    .send({ guests: [{ ...stay, ...guestName }] })
    .expect(201);
  const cancelStay = () =>
    t.http
      .patch(api(hotel, `/bookings/${picked.bookings[0].id}`))
      .set(as(hotel.accessToken))
      .send({ status: 'cancelled' })
      .expect(200);
  return { hotel, category, block, cancelStay };
}

/** The block's cut-off moved to today with every unit picked up: its release finds nothing to do and ends. */
async function cutOffToday(hotel: RegisteredHotel, blockId: string) {
  await t.http
    .patch(api(hotel, `/blocks/${blockId}`))
    .set(as(hotel.accessToken))
    .send({ release_kind: 'date', release_date: localDay(0) })
    .expect(200);
  expect(await (await startedHandle(client, `block-release:${blockId}`)).result()).toBe('released');
}

describe('quotes and held units', () => {
  it('a quote takes held units out as the availability does: all held, not sellable; released, sellable again', async () => {
    const { hotel, category, rooms } = await hotelWithRooms(2);
    const allotment = [{ category_id: category.id, from: localDay(60), to: localDay(61), rooms: 2 }];
    const block = await createBlock(hotel, { allotment, release_kind: 'date', release_date: localDay(30) });
    const stay = { check_in: localDay(60), check_out: localDay(62) };
    const quote = async (target: Record<string, string>) =>
      (
        await t.http
          .get(api(hotel, '/quote'))
          .set(as(hotel.accessToken))
          .query({ ...target, ...stay })
          .expect(200)
      ).body;
    const offered = async () => {
      const { body } = await t.http
        .get(api(hotel, '/availability'))
        .set(as(hotel.accessToken))
        .query({ from: stay.check_in, to: stay.check_out, category_id: category.id })
        .expect(200);
      return body.categories[0];
    };
    const verdictOf = ({ sellable, restrictions, alternatives }: Record<string, unknown>) => ({
      sellable,
      restrictions,
      alternatives,
    });
    const held = await offered();
    expect(held).toMatchObject({ free: [0, 0], sellable: false, restrictions: [] });
    const byCategory = await quote({ category_id: category.id });
    expect(byCategory).toMatchObject({ total: '8000.00', sellable: false, restrictions: [] });
    expect(verdictOf(byCategory)).toEqual(verdictOf(held));
    // The shifts off the held nights are offered, closest first.
    const shift = (days: number) => ({ check_in: localDay(60 + days), check_out: localDay(62 + days) });
    expect(byCategory.alternatives).toEqual([shift(-2), shift(2), shift(-3), shift(3)]);
    expect(verdictOf(await quote({ room_id: rooms[0].id }))).toEqual(verdictOf(held));

    // Nothing picked up, the cut-off moved to today: the release gives both units back, and the quote sells again.
    await t.http
      .patch(api(hotel, `/blocks/${block.id}`))
      .set(as(hotel.accessToken))
      .send({ release_kind: 'date', release_date: localDay(0) })
      .expect(200);
    await nightsOnce(hotel, block.id, (list) => list.every((night) => night.released === 2));
    const released = await offered();
    expect(released).toMatchObject({ free: [2, 2], sellable: true });
    const after = await quote({ category_id: category.id });
    expect(after).toMatchObject({ sellable: true, restrictions: [], alternatives: [] });
    expect(verdictOf(after)).toEqual(verdictOf(released));
  });
});

describe('the release of a block', () => {
  it('on its cut-off date releases what was not picked up, tells the staff, and frees the rooms', async () => {
    const { hotel, category } = await hotelWithRooms(3);
    const allotment = [{ category_id: category.id, from: localDay(20), to: localDay(21), rooms: 2 }];
    const block = await createBlock(hotel, { allotment, release_kind: 'date', release_date: localDay(5) });
    await t.http
      .post(api(hotel, `/blocks/${block.id}/pickup`))
      .set(as(hotel.accessToken))
      .send({
        guests: [
          {
            category_id: category.id,
            check_in: localDay(20),
            check_out: localDay(21),
            guest_last_name: 'Иванова',
            guest_first_name: 'Ольга',
          },
        ],
      })
      .expect(201);
    const handle = await startedHandle(client, `block-release:${block.id}`);
    // The cut-off moved to today: the workflow, asleep until the old one, is woken and releases at once.
    await t.http
      .patch(api(hotel, `/blocks/${block.id}`))
      .set(as(hotel.accessToken))
      .send({ release_kind: 'date', release_date: localDay(0) })
      .expect(200);
    const nights = await nightsOnce(hotel, block.id, (list) => list.every((night) => night.free === 0));
    expect(releasedOf(nights)).toEqual({ [localDay(20)]: [1, 1], [localDay(21)]: [0, 2] });
    expect(await handle.result()).toBe('released');
    const [notice] = await notices(hotel);
    expect(notice.title).toBe('Блок «Свадьба»: невыкупленные номера возвращены в продажу');
    expect(notice.body).toBe(`Возвращено номеро-ночей: 3 (${localDay(20)} — ${localDay(21)})`);
    const { body: free } = await t.http
      .get(api(hotel, '/availability'))
      .set(as(hotel.accessToken))
      .query({ from: localDay(20), to: localDay(22), category_id: category.id })
      .expect(200);
    expect(free.categories[0].free).toEqual([2, 3]);
  });

  it('rolling: each night goes N days before it; the workflow waits for the next and ends with the block', async () => {
    const { hotel, category } = await hotelWithRooms(2);
    const allotment = [{ category_id: category.id, from: localDay(1), to: localDay(4), rooms: 1 }];
    const block = await createBlock(hotel, { allotment, release_kind: 'rolling', release_days: 2 });
    const nights = await nightsOnce(hotel, block.id, (list) => list.filter((night) => night.released > 0).length > 1);
    // Nights 1 and 2 were due at the start of yesterday and today; 3 and 4 wait for tomorrow and the day after.
    expect(releasedOf(nights)).toEqual({
      [localDay(1)]: [0, 1],
      [localDay(2)]: [0, 1],
      [localDay(3)]: [1, 0],
      [localDay(4)]: [1, 0],
    });
    const handle = await startedHandle(client, `block-release:${block.id}`);
    expect((await handle.describe()).status.name).toBe('RUNNING');
    await t.http
      .patch(api(hotel, `/blocks/${block.id}`))
      .set(as(hotel.accessToken))
      .send({ status: 'cancelled' })
      .expect(200);
    expect(await handle.result()).toBe('released');
    expect(await notices(hotel)).toHaveLength(1);
  });

  it('keeps waiting for the release of nights all picked up: a stay cancelled before it frees a unit then', async () => {
    const { hotel, block, cancelStay } = await pickedUpBlock(30, { release_kind: 'date', release_date: localDay(10) });
    // Woken with every unit picked up, it still waits for the cut-off: the stay may be cancelled before it.
    await t.http
      .patch(api(hotel, `/blocks/${block.id}`))
      .set(as(hotel.accessToken))
      .send({ notes: 'Банкет' })
      .expect(200);
    const workflowId = `block-release:${block.id}`;
    await outboxWorkflowsAtRest(t.db, client, (outbox) => outbox.where({ workflow_id: workflowId }), {
      what: 'the release woken by the change',
    });
    const handle = await startedHandle(client, workflowId);
    expect((await handle.describe()).status.name).toBe('RUNNING');
    await cancelStay();
    expect((await handle.describe()).status.name).toBe('RUNNING');
  });

  it('a stay of the pickup cancelled after the cut-off gives its unit back at once', async () => {
    const { hotel, category, block, cancelStay } = await pickedUpBlock(40, {});
    await cutOffToday(hotel, block.id);
    await cancelStay();
    const nights = await nightsOnce(hotel, block.id, (list) => list[0].released === 1);
    expect(releasedOf(nights)).toEqual({ [localDay(40)]: [0, 1] });
    const { body: free } = await t.http
      .get(api(hotel, '/availability'))
      .set(as(hotel.accessToken))
      .query({ from: localDay(40), to: localDay(41), category_id: category.id })
      .expect(200);
    expect(free.categories[0].free).toEqual([2]);
  });

  it('a stay of the pickup shortened after the cut-off gives the night it left back at once', async () => {
    const { hotel, category } = await hotelWithRooms(1);
    const allotment = [{ category_id: category.id, from: localDay(50), to: localDay(51), rooms: 1 }];
    const block = await createBlock(hotel, { allotment });
    const { body: picked } = await t.http
      .post(api(hotel, `/blocks/${block.id}/pickup`))
      .set(as(hotel.accessToken))
      .send({ guests: [{ category_id: category.id, check_in: localDay(50), check_out: localDay(52), ...guestName }] })
      .expect(201);
    await cutOffToday(hotel, block.id);
    await t.http
      .patch(api(hotel, `/bookings/${picked.bookings[0].id}`))
      .set(as(hotel.accessToken))
      .send({ check_out: localDay(51) })
      .expect(200);
    const nights = await nightsOnce(hotel, block.id, (list) => list[1].released === 1);
    expect(releasedOf(nights)).toEqual({ [localDay(50)]: [1, 0], [localDay(51)]: [0, 1] });
  });
});
