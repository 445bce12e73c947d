import { randomUUID } from 'node:crypto';
import { addStaff, as, registerHotel, type RegisteredHotel } from '../helpers/accounts';
import { localDay } from '../helpers/dates';
import { problem } from '../helpers/problem';
import { connectStaff, startTestServer, type TestServer } from '../helpers/realtime';
import { createCategory, createRoom, uploadPhoto } from '../helpers/structure';
import { until } from '../helpers/wait';

let t: TestServer;
let owner: RegisteredHotel;
let other: RegisteredHotel;
let desk: Awaited<ReturnType<typeof addStaff>>;
let soup: MenuItem;
let tea: MenuItem;
let cake: MenuItem;

interface MenuItem {
  id: string;
  name: string;
  price: string;
}
interface Stay {
  room: { id: string; number: string };
  booking: { id: string };
  code: string;
}
interface Order {
  id: string;
  number: number;
  status: string;
  booking_id: string;
  room_id: string;
  room_number: string;
  items: { item_id: string; name: string; unit_price: string; quantity: number; amount: string }[];
  items_total: string;
  delivery_fee: string;
  total: string;
  cancel_reason: string | null;
}

const api = (hotel: RegisteredHotel, path: string) => `/api/hotels/${hotel.slug}/room-service${path}`;
const guestApi = (hotel: RegisteredHotel, path: string) => `/api/hotels/${hotel.slug}/room-service/guest${path}`;
const notAuthorized = problem(
  403,
  'room_service_not_authorized',
  'Нет доступа: проверьте номер комнаты и код проживания',
);

async function configure(hotel: RegisteredHotel, changes: Record<string, unknown>) {
  return (await t.http.patch(api(hotel, '/settings')).set(as(hotel.accessToken)).send(changes).expect(200)).body;
}

async function menuCategory(hotel: RegisteredHotel, name = `Кухня ${randomUUID().slice(0, 6)}`, sortOrder = 0) {
  const created = await t.http
    .post(api(hotel, '/menu/categories'))
    .set(as(hotel.accessToken))
    .send({ name, sort_order: sortOrder })
    .expect(201);
  return created.body as { id: string };
}

async function menuItem(hotel: RegisteredHotel, categoryId: string, fields: Record<string, unknown>) {
  const created = await t.http
    .post(api(hotel, '/menu/items'))
    .set(as(hotel.accessToken))
    .send({ category_id: categoryId, ...fields })
    .expect(201);
  return created.body as MenuItem;
}

/** A room with a stay in it (checked in by default, from yesterday to the day after tomorrow) and the stay's code. */
async function stay(
  hotel: RegisteredHotel,
  options: { from?: number; to?: number; status?: 'confirmed' | 'checked_in' | 'checked_out'; number?: string } = {},
): Promise<Stay> {
  const { from = -1, to = 2, status = 'checked_in', number = `R${randomUUID().slice(0, 6)}` } = options;
  const category = await createCategory(t, hotel);
  const room = await createRoom(t, hotel, category.id, { number });
  const booked = await t.http
    .post(`/api/hotels/${hotel.slug}/bookings`)
    .set(as(hotel.accessToken))
    .send({
      room_id: room.id,
      check_in: localDay(from),
      check_out: localDay(to),
      guest_last_name: 'Гость',
      guest_first_name: 'Тест',
    })
    .expect(201);
  const code = await codeOf(hotel, booked.body.id);
  const move = (to: string) =>
    t.http
      .patch(`/api/hotels/${hotel.slug}/bookings/${booked.body.id}`)
      .set(as(hotel.accessToken))
      .send({ status: to })
      .expect(200);
  if (status !== 'confirmed') await move('checked_in');
  if (status === 'checked_out') await move('checked_out');
  return { room, booking: booked.body, code };
}

async function codeOf(hotel: RegisteredHotel, bookingId: string): Promise<string> {
  const read = await t.http
    .get(api(hotel, `/stays/${bookingId}/code`))
    .set(as(hotel.accessToken))
    .expect(200);
  return read.body.code as string;
}

/** Another 8-digit code than `code`: a wrong guess. */
const wrongCode = (code: string, offset = 1) => String((Number(code) + offset) % 100_000_000).padStart(8, '0');

/** The proof headers as a guest's page sends them: the room number percent-encoded (it may have Cyrillic letters). */
const proof = (room: string, code: string) => ({ 'X-Room': encodeURIComponent(room), 'X-Stay-Code': code });
const proofOf = (guest: Stay) => proof(guest.room.number, guest.code);

function config(hotel: RegisteredHotel, headers: Record<string, string>) {
  return t.http.get(guestApi(hotel, '/config')).set(headers);
}

function order(hotel: RegisteredHotel, headers: Record<string, string>, body: Record<string, unknown>) {
  return t.http.post(guestApi(hotel, '/orders')).set(headers).send(body);
}

async function placed(guest: Stay, items: { item_id: string; quantity: number }[], hotel = owner) {
  const response = await order(hotel, proofOf(guest), { items }).expect(201);
  return response.body as { order: Order; status_token: string };
}

function move(id: string, body: Record<string, unknown>, token = owner.accessToken) {
  return t.http
    .post(api(owner, `/orders/${id}/status`))
    .set(as(token))
    .send(body);
}

/** The local time `HH:MM` in the new hotels' zone (Europe/Moscow), `hours` from now. */
function moscowTime(hours: number): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Europe/Moscow',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(Date.now() + hours * 3_600_000));
}

beforeAll(async () => {
  t = await startTestServer();
  [owner, other] = await Promise.all([registerHotel(t), registerHotel(t)]);
  desk = await addStaff(t, owner, 'receptionist');
  await configure(owner, { enabled: true, delivery_fee: '150', minimum_order: '0' });
  const kitchen = await menuCategory(owner, 'Кухня', 1);
  const drinks = await menuCategory(owner, 'Напитки', 2);
  soup = await menuItem(owner, kitchen.id, { name: 'Борщ', price: '350.50', description: 'Со сметаной' });
  tea = await menuItem(owner, drinks.id, { name: 'Чай', price: 120 });
  cake = await menuItem(owner, kitchen.id, { name: 'Торт', price: 400, is_available: false });
});
afterAll(() => t.close());

describe('settings', () => {
  it('start off, around the clock, no fee or minimum, every room; changes are checked and versioned', async () => {
    const fresh = await registerHotel(t);
    const read = await t.http.get(api(fresh, '/settings')).set(as(fresh.accessToken)).expect(200);
    expect(read.body).toEqual({
      hotel_id: fresh.hotelId,
      enabled: false,
      opens_at: '00:00',
      closes_at: '00:00',
      delivery_fee: '0.00',
      minimum_order: '0.00',
      room_ids: null,
      updated_at: expect.any(String),
    });
    const changed = await t.http
      .patch(api(fresh, '/settings'))
      .set(as(fresh.accessToken))
      .set('If-Match', read.headers.etag)
      .send({ opens_at: '22:00', closes_at: '02:00', delivery_fee: 99.5 })
      .expect(200);
    expect(changed.body).toMatchObject({ opens_at: '22:00', closes_at: '02:00', delivery_fee: '99.50' });
    await t.http
      .patch(api(fresh, '/settings'))
      .set(as(fresh.accessToken))
      .set('If-Match', read.headers.etag)
      .send({ enabled: true })
      .expect(412);
    for (const bad of [{ opens_at: '24:00' }, { delivery_fee: 100001 }, { minimum_order: -1 }, { room_ids: ['x'] }]) {
      await t.http.patch(api(fresh, '/settings')).set(as(fresh.accessToken)).send(bad).expect(400);
    }
  });

  it("serves only the hotel's own rooms", async () => {
    const theirs = await createRoom(t, other, (await createCategory(t, other)).id);
    const refused = await t.http
      .patch(api(owner, '/settings'))
      .set(as(owner.accessToken))
      .send({ room_ids: [theirs.id] })
      .expect(400);
    expect(refused.body.details).toEqual([{ path: 'body.room_ids.0', message: 'Нет таких номеров в этом отеле' }]);
  });

  it('are changed by management only; the desk reads them', async () => {
    await t.http.get(api(owner, '/settings')).set(as(desk.accessToken)).expect(200);
    await t.http.patch(api(owner, '/settings')).set(as(desk.accessToken)).send({ enabled: false }).expect(403);
  });
});

describe('menu', () => {
  it('lists categories and items by sort order, then name', async () => {
    const hotel = await registerHotel(t);
    const second = await menuCategory(hotel, 'Б', 5);
    const first = await menuCategory(hotel, 'В', 1);
    await menuCategory(hotel, 'А', 5);
    const categories = await t.http.get(api(hotel, '/menu/categories')).set(as(hotel.accessToken)).expect(200);
    expect(categories.body.map((c: { name: string }) => c.name)).toEqual(['В', 'А', 'Б']);
    await menuItem(hotel, first.id, { name: 'Суп', price: 100, sort_order: 2 });
    await menuItem(hotel, second.id, { name: 'Каша', price: 100, sort_order: 1 });
    await menuItem(hotel, first.id, { name: 'Блины', price: 100, sort_order: 2 });
    const items = await t.http.get(api(hotel, '/menu/items')).set(as(hotel.accessToken)).expect(200);
    expect(items.body.map((i: { name: string }) => i.name)).toEqual(['Каша', 'Блины', 'Суп']);
    const filtered = await t.http
      .get(api(hotel, '/menu/items'))
      .query({ category_id: first.id })
      .set(as(hotel.accessToken))
      .expect(200);
    expect(filtered.body.map((i: { name: string }) => i.name)).toEqual(['Блины', 'Суп']);
  });

  it("takes a photo the hotel uploaded (any folder), never another hotel's or a stranger's", async () => {
    const category = await menuCategory(owner);
    const photo = await uploadPhoto(t, owner, 'hotels');
    const item = await menuItem(owner, category.id, { name: 'Омлет', price: 300, photo_url: photo });
    expect(item).toMatchObject({ photo_url: photo, is_available: true, price: '300.00', description: '' });
    for (const url of [await uploadPhoto(t, other), 'https://example.com/photo.png']) {
      const refused = await t.http
        .patch(api(owner, `/menu/items/${item.id}`))
        .set(as(owner.accessToken))
        .send({ photo_url: url })
        .expect(400);
      expect(refused.body.details[0].path).toBe('body.photo_url');
    }
    await t.http
      .patch(api(owner, `/menu/items/${item.id}`))
      .set(as(owner.accessToken))
      .send({ photo_url: null })
      .expect(200);
  });

  it("bounds prices and texts, refuses another hotel's category, and keeps a category with items", async () => {
    const category = await menuCategory(owner);
    const base = { category_id: category.id, name: 'Каша' };
    for (const bad of [
      { ...base, price: 0 },
      { ...base, price: 1000000.01 },
      { ...base, price: '1.005' },
      { ...base, price: 10, name: 'x'.repeat(101) },
      { ...base, price: 10, description: 'x'.repeat(1001) },
      { ...base, price: 10, category_id: (await menuCategory(other)).id },
    ]) {
      await t.http.post(api(owner, '/menu/items')).set(as(owner.accessToken)).send(bad).expect(400);
    }
    await menuItem(owner, category.id, { name: 'Каша', price: 10 });
    await t.http
      .post(api(owner, '/menu/items'))
      .set(as(owner.accessToken))
      .send({ ...base, price: 20 })
      .expect(409);
    await t.http
      .delete(api(owner, `/menu/categories/${category.id}`))
      .set(as(owner.accessToken))
      .expect(409);
  });
});

describe('stay codes', () => {
  it('are eight digits, made once on the first ask, and replaced on demand', async () => {
    const guest = await stay(owner);
    expect(guest.code).toMatch(/^\d{8}$/);
    expect(await codeOf(owner, guest.booking.id)).toBe(guest.code);
    const replaced = await t.http
      .post(api(owner, `/stays/${guest.booking.id}/code`))
      .set(as(desk.accessToken))
      .expect(201);
    expect(replaced.body).toEqual({
      booking_id: guest.booking.id,
      room_id: guest.room.id,
      code: expect.stringMatching(/^\d{8}$/),
      created_at: expect.any(String),
    });
    expect(await codeOf(owner, guest.booking.id)).toBe(replaced.body.code);
    // A replacement is always another code, and the one before stops working at once.
    expect(replaced.body.code).not.toBe(guest.code);
    expect((await config(owner, proofOf(guest)).expect(403)).body).toEqual(notAuthorized);
    expect((await config(owner, proof(guest.room.number, replaced.body.code))).status).toBe(200);
  });

  it("are not given for a stay that is over, nor for another hotel's booking", async () => {
    const gone = await stay(owner, { status: 'checked_out' });
    const refused = await t.http
      .get(api(owner, `/stays/${gone.booking.id}/code`))
      .set(as(owner.accessToken))
      .expect(422);
    expect(refused.body.code).toBe('room_service_stay_closed');
    const theirs = await stay(other);
    await t.http
      .get(api(owner, `/stays/${theirs.booking.id}/code`))
      .set(as(owner.accessToken))
      .expect(404);
  });
});

describe('a guest proving their stay', () => {
  it('gets the menu of available items for their room with the right number and code', async () => {
    const guest = await stay(owner);
    const read = await config(owner, proof(` ${guest.room.number.toLowerCase()} `, guest.code)).expect(200);
    expect(read.body).toMatchObject({
      enabled: true,
      open_now: true,
      opens_at: '00:00',
      closes_at: '00:00',
      time_zone: 'Europe/Moscow',
      delivery_fee: '150.00',
      minimum_order: '0.00',
      room_number: guest.room.number,
      room_served: true,
    });
    const kitchen = read.body.menu.find((category: { name: string }) => category.name === 'Кухня');
    expect(kitchen.items).toEqual([
      { id: soup.id, name: 'Борщ', description: 'Со сметаной', price: '350.50', photo_url: null },
    ]);
    expect(JSON.stringify(read.body.menu)).not.toContain(cake.id);
  });

  it('names a room with Cyrillic letters percent-encoded, in either case', async () => {
    const guest = await stay(owner, { number: `12Б-${randomUUID().slice(0, 4)}` });
    await config(owner, proof(guest.room.number.toLowerCase(), guest.code)).expect(200);
    // A room that is not percent-encoded is a proof no stay has: the one 403.
    expect((await config(owner, { 'X-Room': '%E0%A4%A', 'X-Stay-Code': guest.code }).expect(403)).body).toEqual(
      notAuthorized,
    );
  });

  it('is refused with one answer for a wrong code, another room, a stay over or to come, another hotel', async () => {
    const guest = await stay(owner);
    const neighbour = await stay(owner);
    const gone = await stay(owner, { status: 'checked_out' });
    const coming = await stay(owner, { from: 3, to: 5, status: 'confirmed' });
    const attempts = [
      proof(guest.room.number, wrongCode(guest.code)),
      proof(guest.room.number, neighbour.code),
      proof(neighbour.room.number, guest.code),
      proofOf(gone),
      proofOf(coming),
      proof('no-such-room', guest.code),
    ];
    for (const headers of attempts) {
      expect((await config(owner, headers)).body).toEqual(notAuthorized);
      expect((await order(owner, headers, { items: [{ item_id: soup.id, quantity: 1 }] })).body).toEqual(notAuthorized);
    }
    // Our room and code on another hotel's slug, and on no hotel's.
    for (const slug of [other.slug, `nobody-${randomUUID().slice(0, 8)}`]) {
      const response = await t.http.get(`/api/hotels/${slug}/room-service/guest/config`).set(proofOf(guest));
      expect(response.status).toBe(403);
      expect(response.body).toEqual(notAuthorized);
    }
    expect(await ordersOfBooking(gone.booking.id)).toEqual([]);
  });

  it('is stopped after 5 wrong codes for a room in an hour, then even the right one, with Retry-After', async () => {
    const guest = await stay(owner);
    for (let attempt = 0; attempt < 3; attempt++) await config(owner, proofOf(guest)).expect(200);
    for (let attempt = 0; attempt < 5; attempt++) {
      await config(owner, proof(guest.room.number, wrongCode(guest.code, attempt + 1))).expect(403);
    }
    const stopped = await config(owner, proofOf(guest)).expect(429);
    // The room's window is an hour, not the 15 minutes of the address's.
    expect(Number(stopped.headers['retry-after'])).toBeGreaterThan(900);
    await order(owner, proofOf(guest), { items: [{ item_id: soup.id, quantity: 1 }] }).expect(429);
    // Another room of the hotel is not stopped by this one's guesses.
    await config(owner, proofOf(await stay(owner))).expect(200);
  });

  it('is stopped after 100 wrong proofs from one address; past that no room is counted', async () => {
    const hotel = await registerHotel(t);
    const guest = await stay(hotel);
    // Twenty rooms of the hotel, five wrong codes each: no room's own budget is what stops the address.
    const category = await createCategory(t, hotel);
    const rooms = await Promise.all(Array.from({ length: 20 }, () => createRoom(t, hotel, category.id)));
    // One guest on the hotel's shared Wi-Fi address mistyping now and then does not stop the others.
    for (let attempt = 0; attempt < 100; attempt++) {
      await config(hotel, proof(rooms[attempt % 20].number, guest.code)).expect(403);
      if (attempt % 25 === 0) await config(hotel, proofOf(guest)).expect(200);
    }
    const stopped = await config(hotel, proofOf(guest)).expect(429);
    expect(Number(stopped.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(stopped.headers['retry-after'])).toBeLessThanOrEqual(900);
    const spare = await createRoom(t, hotel, category.id);
    await config(hotel, proof(spare.number, guest.code)).expect(429);
    const counted = async (roomId: string) =>
      (await t.db('rate_limit_counters').where({ key: `room_service.room:ip:${hotel.hotelId}:${roomId}` })).length;
    expect(await counted(rooms[19].id)).toBe(1);
    expect(await counted(spare.id)).toBe(0);
  });

  it('counts every room name the hotel does not have against one budget, however many names are invented', async () => {
    const hotel = await registerHotel(t);
    const guest = await stay(hotel);
    const neighbour = await stay(hotel);
    // Each name is new (and the address far from its own budget of 100): the hotel's budget of unknown rooms is not.
    for (let attempt = 0; attempt < 5; attempt++) {
      const invented = await config(hotel, proof(`invented-${attempt}`, guest.code)).expect(403);
      expect(invented.body).toEqual(notAuthorized);
    }
    await config(hotel, proof(`nowhere-${randomUUID().slice(0, 8)}`, guest.code)).expect(429);
    // A real room keeps its own budget, whatever was guessed at names of no room.
    await config(hotel, proofOf(guest)).expect(200);
    expect((await config(hotel, proof(neighbour.room.number, guest.code)).expect(403)).body).toEqual(notAuthorized);
  });
});

async function ordersOfBooking(bookingId: string) {
  const list = await t.http
    .get(api(owner, '/orders'))
    .query({ booking_id: bookingId })
    .set(as(owner.accessToken))
    .expect(200);
  return list.body as Order[];
}

describe('placing an order', () => {
  it('is priced by the server from the menu: a price sent is ignored; items plus the delivery fee', async () => {
    const guest = await stay(owner);
    const { order: placedOrder, status_token: token } = (
      await order(owner, proofOf(guest), {
        items: [
          { item_id: soup.id, quantity: 2, price: 1, unit_price: 1 },
          { item_id: tea.id, quantity: 3 },
        ],
        total: 1,
        delivery_fee: 0,
        note: 'Без лука',
      }).expect(201)
    ).body as { order: Order; status_token: string };
    expect(placedOrder).toMatchObject({
      status: 'new',
      booking_id: guest.booking.id,
      room_id: guest.room.id,
      room_number: guest.room.number,
      items: [
        { item_id: soup.id, name: 'Борщ', unit_price: '350.50', quantity: 2, amount: '701.00' },
        { item_id: tea.id, name: 'Чай', unit_price: '120.00', quantity: 3, amount: '360.00' },
      ],
      items_total: '1061.00',
      delivery_fee: '150.00',
      total: '1211.00',
      note: 'Без лука',
      cancel_reason: null,
    });
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    const status = await t.http
      .get(guestApi(owner, `/orders/${placedOrder.id}`))
      .set('X-Order-Token', token)
      .expect(200);
    expect(status.body).toMatchObject({ id: placedOrder.id, status: 'new', total: '1211.00' });
    const staffView = await t.http
      .get(api(owner, `/orders/${placedOrder.id}`))
      .set(as(desk.accessToken))
      .expect(200);
    expect(staffView.body).toEqual(status.body);
  });

  it("reads its status only with its own token, on its own hotel's slug; the stay lists its own", async () => {
    const guest = await stay(owner);
    const first = await placed(guest, [{ item_id: tea.id, quantity: 1 }]);
    const second = await placed(guest, [{ item_id: tea.id, quantity: 2 }]);
    const read = (slug: string, id: string, token: string) =>
      t.http.get(`/api/hotels/${slug}/room-service/guest/orders/${id}`).set('X-Order-Token', token);
    await read(owner.slug, first.order.id, second.status_token).expect(404);
    await read(owner.slug, first.order.id, 'a'.repeat(64)).expect(404);
    await read(other.slug, first.order.id, first.status_token).expect(404);
    await read(owner.slug, first.order.id, first.status_token).expect(200);
    expect(second.order.number).toBe(first.order.number + 1);
    // The stay's own list needs the stay's proof, and shows only its orders.
    await placed(await stay(owner), [{ item_id: tea.id, quantity: 1 }]);
    const mine = await t.http.get(guestApi(owner, '/orders')).set(proofOf(guest)).expect(200);
    expect(mine.body.map((o: Order) => o.id)).toEqual([second.order.id, first.order.id]);
    expect(
      (await t.http.get(guestApi(owner, '/orders')).set(proof(guest.room.number, wrongCode(guest.code)))).body,
    ).toEqual(notAuthorized);
  });

  it('is refused while disabled, closed, for a room not served, below the minimum, or with an unavailable item', async () => {
    const hotel = await registerHotel(t);
    const category = await menuCategory(hotel);
    const dish = await menuItem(hotel, category.id, { name: 'Плов', price: 500 });
    const withdrawn = await menuItem(hotel, category.id, { name: 'Уха', price: 500, is_available: false });
    const guest = await stay(hotel);
    const one = { items: [{ item_id: dish.id, quantity: 1 }] };
    const refusal = async (body: Record<string, unknown>, code: string) => {
      const response = await order(hotel, proofOf(guest), body).expect(422);
      expect(response.body).toMatchObject({ code: `room_service_${code}`, error: expect.any(String) });
      return response.body as { error: string; errors: string[] };
    };

    await refusal(one, 'disabled');
    expect((await config(hotel, proofOf(guest)).expect(200)).body).toMatchObject({ enabled: false, menu: [] });

    await configure(hotel, { enabled: true, opens_at: moscowTime(2), closes_at: moscowTime(3) });
    expect((await refusal(one, 'closed')).error).toContain(moscowTime(2));
    expect((await config(hotel, proofOf(guest)).expect(200)).body.open_now).toBe(false);
    // Past midnight: from an hour ago to an hour ago minus a minute is open all but that minute.
    await configure(hotel, { opens_at: moscowTime(-1), closes_at: moscowTime(-1.02) });
    await order(hotel, proofOf(guest), one).expect(201);

    await configure(hotel, { opens_at: '00:00', closes_at: '00:00', room_ids: [] });
    await refusal(one, 'room_not_served');
    expect((await config(hotel, proofOf(guest)).expect(200)).body.room_served).toBe(false);
    await configure(hotel, { room_ids: [guest.room.id], minimum_order: 1000, delivery_fee: 600 });
    // The minimum is of the items alone: the fee does not count towards it.
    expect((await refusal(one, 'below_minimum')).error).toContain('1000.00');
    await order(hotel, proofOf(guest), { items: [{ item_id: dish.id, quantity: 2 }] }).expect(201);

    const unknown = randomUUID();
    const theirs = (await menuItem(other, (await menuCategory(other)).id, { name: 'Чужое', price: 1 })).id;
    const unavailable = await refusal(
      {
        items: [
          { item_id: dish.id, quantity: 2 },
          { item_id: withdrawn.id, quantity: 1 },
          { item_id: unknown, quantity: 1 },
          { item_id: theirs, quantity: 1 },
        ],
      },
      'item_unavailable',
    );
    expect(unavailable.errors).toEqual([withdrawn.id, unknown, theirs]);
    await order(hotel, proofOf(guest), { items: [] }).expect(400);
    await order(hotel, proofOf(guest), { items: [{ item_id: dish.id, quantity: 51 }] }).expect(400);
    const list = await t.http.get(api(hotel, '/orders')).set(as(hotel.accessToken)).expect(200);
    expect(list.body).toHaveLength(2);
  });

  it('is refused once the stay has checked out, also when the check-out commits after the proof', async () => {
    const guest = await stay(owner);
    const one = { items: [{ item_id: tea.id, quantity: 1 }] };
    // The check-out held uncommitted: the proof still sees the stay in house, the order's transaction waits for it.
    const checkOut = await t.db.transaction();
    try {
      await checkOut('bookings')
        .where({ hotel_id: owner.hotelId, id: guest.booking.id })
        .update({ status: 'checked_out', checked_out_at: checkOut.fn.now() });
      const pending = order(owner, proofOf(guest), one).then((response) => response);
      await until(
        async () => {
          const { rows } = await t.db.raw<{ rows: unknown[] }>(
            `SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query ILIKE '%from "bookings"%for share%'`,
          );
          return rows.length > 0;
        },
        { what: 'the order waiting for the booking' },
      );
      await checkOut.commit();
      expect((await pending).body).toEqual(notAuthorized);
    } finally {
      if (!checkOut.isCompleted()) await checkOut.rollback();
    }
    expect((await order(owner, proofOf(guest), one)).body).toEqual(notAuthorized);
    expect(await ordersOfBooking(guest.booking.id)).toEqual([]);
  });

  it('with an Idempotency-Key is placed once, however often it is sent, its token stored nowhere', async () => {
    const guest = await stay(owner);
    const key = randomUUID();
    const body = { items: [{ item_id: tea.id, quantity: 1 }] };
    const first = await order(owner, { ...proofOf(guest), 'Idempotency-Key': key }, body).expect(201);
    const again = await order(owner, { ...proofOf(guest), 'Idempotency-Key': key }, body).expect(201);
    expect(again.body.order.id).toBe(first.body.order.id);
    const token = first.body.status_token as string;
    expect(again.body.status_token).toBe(token);
    await t.http
      .get(guestApi(owner, `/orders/${first.body.order.id}`))
      .set('X-Order-Token', token)
      .expect(200);
    const kept = [
      await t.db('idempotency_keys').where({ hotel_id: owner.hotelId, key }),
      await t.db('room_service_orders').where({ id: first.body.order.id }),
    ];
    expect(JSON.stringify(kept)).toContain(first.body.order.id);
    expect(JSON.stringify(kept)).not.toContain(token);
    await order(
      owner,
      { ...proofOf(guest), 'Idempotency-Key': key },
      { items: [{ item_id: tea.id, quantity: 2 }] },
    ).expect(422);
    expect(await ordersOfBooking(guest.booking.id)).toHaveLength(1);
  });

  it('tells the staff socket and notifies the roles that want room-service orders', async () => {
    const socket = await connectStaff(t.wsUrl, desk.accessToken);
    try {
      const guest = await stay(owner);
      const { order: placedOrder } = await placed(guest, [{ item_id: soup.id, quantity: 1 }]);
      const created = await socket.next(
        (message) => message.type === 'room_service_order_created' && message.payload?.order_id === placedOrder.id,
      );
      expect(created.payload).toEqual({
        order_id: placedOrder.id,
        number: placedOrder.number,
        room_id: guest.room.id,
        booking_id: guest.booking.id,
        status: 'new',
        total: '500.50',
      });
      await move(placedOrder.id, { status: 'accepted' }, desk.accessToken).expect(200);
      const updated = await socket.next(
        (message) => message.type === 'room_service_order_updated' && message.payload?.order_id === placedOrder.id,
      );
      expect(updated.payload).toMatchObject({ status: 'accepted' });
      const inbox = await t.http.get(`/api/hotels/${owner.slug}/notifications`).set(as(desk.accessToken)).expect(200);
      const notice = inbox.body.items.find(
        (item: { data: { order_id?: string } }) => item.data.order_id === placedOrder.id,
      );
      expect(notice).toMatchObject({
        type: 'room_service_order',
        title: `Заказ №${placedOrder.number} в номер ${guest.room.number}`,
        body: '1 × Борщ. Итого 500.50',
      });
    } finally {
      await socket.close();
    }
  });
});

describe('staff moving an order', () => {
  it('goes new → accepted → preparing → delivered, and delivery bills the stay once', async () => {
    const guest = await stay(owner);
    const { order: placedOrder } = await placed(guest, [{ item_id: soup.id, quantity: 2 }]);
    const illegal = await move(placedOrder.id, { status: 'preparing' }).expect(409);
    expect(illegal.body).toEqual(
      problem(409, 'room_service_illegal_move', 'Нельзя перевести заказ из статуса «новый» в «готовится»'),
    );
    await move(placedOrder.id, { status: 'delivered' }).expect(409);
    await move(placedOrder.id, { status: 'accepted' }).expect(200);
    await move(placedOrder.id, { status: 'accepted' }).expect(409);
    await move(placedOrder.id, { status: 'preparing' }).expect(200);
    const delivered = await move(placedOrder.id, { status: 'delivered' }).expect(200);
    expect(delivered.body).toMatchObject({ status: 'delivered', delivered_at: expect.any(String) });
    await move(placedOrder.id, { status: 'delivered' }).expect(409);
    await move(placedOrder.id, { status: 'cancelled', reason: 'Поздно' }).expect(409);

    const charges = await t.http
      .get(`/api/hotels/${owner.slug}/bookings/${guest.booking.id}/charges`)
      .set(as(owner.accessToken))
      .expect(200);
    expect(charges.body).toEqual([
      expect.objectContaining({ kind: 'room_service', source_id: placedOrder.id, amount: '851.00' }),
    ]);
    const booking = await t.http
      .get(`/api/hotels/${owner.slug}/bookings/${guest.booking.id}`)
      .set(as(owner.accessToken))
      .expect(200);
    expect(booking.body.charges_amount).toBe('851.00');
    expect(Number(booking.body.balance)).toBeCloseTo(
      Number(booking.body.price) + 851 - Number(booking.body.paid_amount),
    );
  });

  it('delivers and bills an order whose stay checked out after ordering (the food was eaten)', async () => {
    const guest = await stay(owner);
    const { order: placedOrder } = await placed(guest, [{ item_id: tea.id, quantity: 1 }]);
    await move(placedOrder.id, { status: 'accepted' }).expect(200);
    await t.http
      .patch(`/api/hotels/${owner.slug}/bookings/${guest.booking.id}`)
      .set(as(owner.accessToken))
      .send({ status: 'checked_out' })
      .expect(200);
    await move(placedOrder.id, { status: 'preparing' }).expect(200);
    await move(placedOrder.id, { status: 'delivered' }).expect(200);
    const charges = await t.http
      .get(`/api/hotels/${owner.slug}/bookings/${guest.booking.id}/charges`)
      .set(as(owner.accessToken))
      .expect(200);
    expect(charges.body).toEqual([
      expect.objectContaining({ kind: 'room_service', source_id: placedOrder.id, amount: placedOrder.total }),
    ]);
  });

  it('refunds a delivered order once, with a reason: a negative bill line meets the delivery', async () => {
    const guest = await stay(owner);
    const { order: placedOrder } = await placed(guest, [{ item_id: soup.id, quantity: 2 }]);
    await move(placedOrder.id, { status: 'refunded', reason: 'Не то блюдо' }).expect(409);
    for (const status of ['accepted', 'preparing', 'delivered']) await move(placedOrder.id, { status }).expect(200);
    await move(placedOrder.id, { status: 'refunded' }).expect(400);
    const refunded = await move(placedOrder.id, { status: 'refunded', reason: 'Не то блюдо' }).expect(200);
    expect(refunded.body).toMatchObject({
      status: 'refunded',
      refund_reason: 'Не то блюдо',
      refunded_at: expect.any(String),
      delivered_at: expect.any(String),
    });
    await move(placedOrder.id, { status: 'refunded', reason: 'Ещё раз' }).expect(409);
    const charges = await t.http
      .get(`/api/hotels/${owner.slug}/bookings/${guest.booking.id}/charges`)
      .set(as(owner.accessToken))
      .expect(200);
    expect(charges.body).toEqual([
      expect.objectContaining({ source_id: placedOrder.id, amount: '851.00' }),
      expect.objectContaining({ kind: 'room_service', source_id: `refund:${placedOrder.id}`, amount: '-851.00' }),
    ]);
    const booking = await t.http
      .get(`/api/hotels/${owner.slug}/bookings/${guest.booking.id}`)
      .set(as(owner.accessToken))
      .expect(200);
    expect(booking.body.charges_amount).toBe('0.00');
  });

  it('delivers once when the desk sends it twice at the same moment; parallel orders get numbers in turn', async () => {
    const guest = await stay(owner);
    const orders = await Promise.all(
      [1, 2, 3, 4].map((quantity) =>
        order(owner, proofOf(guest), { items: [{ item_id: tea.id, quantity }] }).expect(201),
      ),
    );
    const numbers = orders.map((response) => (response.body.order as Order).number).sort((x, y) => x - y);
    expect(numbers).toEqual([numbers[0], numbers[0] + 1, numbers[0] + 2, numbers[0] + 3]);
    const id = (orders[0].body.order as Order).id;
    await move(id, { status: 'accepted' }).expect(200);
    await move(id, { status: 'preparing' }).expect(200);
    const statuses = await Promise.all([1, 2, 3].map(() => move(id, { status: 'delivered' })));
    expect(statuses.map((response) => response.status).sort()).toEqual([200, 409, 409]);
    const charges = await t.http
      .get(`/api/hotels/${owner.slug}/bookings/${guest.booking.id}/charges`)
      .set(as(owner.accessToken))
      .expect(200);
    expect(charges.body).toHaveLength(1);
    expect(charges.body[0]).toMatchObject({ source_id: id, amount: (orders[0].body.order as Order).total });
  });

  it('takes an order by phone for a stay checked in, under the same rules and prices', async () => {
    const guest = await stay(owner);
    const taken = await t.http
      .post(api(owner, '/orders'))
      .set(as(desk.accessToken))
      .send({ booking_id: guest.booking.id, items: [{ item_id: soup.id, quantity: 1, price: '0.01' }], note: 'Звонок' })
      .expect(201);
    expect(taken.body).toMatchObject({
      status: 'new',
      booking_id: guest.booking.id,
      room_number: guest.room.number,
      total: '500.50',
      note: 'Звонок',
    });
    expect(taken.body.status_token).toBeUndefined();
    const desked = (body: Record<string, unknown>) =>
      t.http.post(api(owner, '/orders')).set(as(desk.accessToken)).send(body);
    for (const away of [
      await stay(owner, { from: 3, to: 5, status: 'confirmed' }),
      await stay(owner, { status: 'checked_out' }),
    ]) {
      expect(
        (await desked({ booking_id: away.booking.id, items: [{ item_id: tea.id, quantity: 1 }] }).expect(422)).body,
      ).toMatchObject({ code: 'room_service_stay_not_in_house' });
    }
    await desked({ booking_id: (await stay(other)).booking.id, items: [{ item_id: tea.id, quantity: 1 }] }).expect(400);
    expect(
      (await desked({ booking_id: guest.booking.id, items: [{ item_id: cake.id, quantity: 1 }] }).expect(422)).body,
    ).toMatchObject({ code: 'room_service_item_unavailable', errors: [cake.id] });
  });

  it('cancels from an open step only with a reason; a cancelled order bills nothing', async () => {
    const guest = await stay(owner);
    const { order: placedOrder, status_token: token } = await placed(guest, [{ item_id: tea.id, quantity: 1 }]);
    await move(placedOrder.id, { status: 'cancelled' }).expect(400);
    await move(placedOrder.id, { status: 'cancelled', reason: '   ' }).expect(400);
    await move(placedOrder.id, { status: 'accepted', reason: 'Зачем' }).expect(400);
    await move(placedOrder.id, { status: 'accepted' }).expect(200);
    const cancelled = await move(placedOrder.id, { status: 'cancelled', reason: 'Кухня закрыта' }).expect(200);
    expect(cancelled.body).toMatchObject({ status: 'cancelled', cancel_reason: 'Кухня закрыта' });
    await move(placedOrder.id, { status: 'preparing' }).expect(409);
    const seen = await t.http
      .get(guestApi(owner, `/orders/${placedOrder.id}`))
      .set('X-Order-Token', token)
      .expect(200);
    expect(seen.body).toMatchObject({ status: 'cancelled', cancel_reason: 'Кухня закрыта' });
    const charges = await t.http
      .get(`/api/hotels/${owner.slug}/bookings/${guest.booking.id}/charges`)
      .set(as(owner.accessToken))
      .expect(200);
    expect(charges.body).toEqual([]);
  });

  it('lists orders newest first, by status, room and day, a page at a time', async () => {
    const guest = await stay(owner);
    const older = await placed(guest, [{ item_id: tea.id, quantity: 1 }]);
    const newer = await placed(guest, [{ item_id: tea.id, quantity: 2 }]);
    await move(older.order.id, { status: 'accepted' }).expect(200);
    const query = (filter: Record<string, unknown>) =>
      t.http
        .get(api(owner, '/orders'))
        .query({ room_id: guest.room.id, ...filter })
        .set(as(desk.accessToken))
        .expect(200);
    expect((await query({})).body.map((o: Order) => o.id)).toEqual([newer.order.id, older.order.id]);
    expect((await query({ status: 'accepted' })).body.map((o: Order) => o.id)).toEqual([older.order.id]);
    expect((await query({ from: localDay(0), to: localDay(0) })).body).toHaveLength(2);
    expect((await query({ from: localDay(1), to: localDay(2) })).body).toEqual([]);
    const page = await query({ limit: 1 });
    expect(page.body).toHaveLength(1);
    expect(page.headers['x-next-cursor']).toBeDefined();
    await t.http
      .get(api(owner, '/orders'))
      .query({ from: localDay(0), to: localDay(400) })
      .set(as(owner.accessToken))
      .expect(400);
  });

  it("are out of another hotel's reach, and of staff without a desk role", async () => {
    const guest = await stay(owner);
    const { order: placedOrder } = await placed(guest, [{ item_id: tea.id, quantity: 1 }]);
    await t.http
      .get(api(owner, `/orders/${placedOrder.id}`))
      .set(as(other.accessToken))
      .expect(403);
    await t.http
      .get(`/api/hotels/${other.slug}/room-service/orders/${placedOrder.id}`)
      .set(as(other.accessToken))
      .expect(404);
    const maid = await addStaff(t, owner, 'housekeeper');
    await t.http.get(api(owner, '/orders')).set(as(maid.accessToken)).expect(403);
    await move(placedOrder.id, { status: 'accepted' }, other.accessToken).expect(403);
  });
});
