import { createHash, randomUUID } from 'node:crypto';
import type { Db } from '../../src/platform/db/knex';
import { call, mapConcurrently, signIn } from './fixtures';
import { formatLoad, percentile, runLoad } from './stats';

const CLIENTS = 20;
/** Orders moved through to delivery one after another (each delivery bills the stay in its transaction). */
const DELIVERIES = 300;
/** Ledger rows of one guest, and reviews of the hotel, inserted with SQL. */
const LEDGER_ROWS = 20_000;
const REVIEWS = 20_000;
const INSERT_BATCH = 1000;
const READS = 200;

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const ms = (sorted: number[]) =>
  `p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms`;

interface Session {
  token: string;
  hotel: string;
}

/** Reads `path` `READS` times, one after another; the latencies sorted. */
async function timedReads(baseUrl: string, session: Session, path: string): Promise<number[]> {
  const latencies: number[] = [];
  for (let i = 0; i < READS; i++) {
    const t0 = performance.now();
    await call(baseUrl, 'GET', `${session.hotel}${path}`, session.token);
    latencies.push(performance.now() - t0);
  }
  return latencies.sort((a, b) => a - b);
}

/** A checked-in stay in a new room, with its room-service stay code. */
async function stayInHouse(baseUrl: string, session: Session) {
  const post = <T>(path: string, body: object) =>
    call<T>(baseUrl, 'POST', `${session.hotel}${path}`, session.token, body);
  const category = await post<{ id: string }>('/room-categories', { name: 'Guest services', base_price: 4000 });
  const room = await post<{ id: string; number: string }>('/rooms', { number: '701', category_id: category.id });
  const guest = await post<{ id: string }>('/guests', { last_name: 'Скамейкин', first_name: 'Бенч' });
  const booking = await post<{ id: string }>('/bookings', {
    room_id: room.id,
    check_in: day(-1),
    check_out: day(4),
    guest_id: guest.id,
    guest_last_name: 'Скамейкин',
    guest_first_name: 'Бенч',
  });
  await call(baseUrl, 'PATCH', `${session.hotel}/bookings/${booking.id}`, session.token, { status: 'checked_in' });
  const { code } = await call<{ code: string }>(
    baseUrl,
    'GET',
    `${session.hotel}/room-service/stays/${booking.id}/code`,
    session.token,
  );
  return { room, guest, booking, code };
}

/** Room service: guests ordering to the room, the desk's order list, and deliveries billed to the stay. */
async function benchRoomService(baseUrl: string, session: Session, durationMs: number): Promise<string[]> {
  const rs = `${session.hotel}/room-service`;
  const stay = await stayInHouse(baseUrl, session);
  await call(baseUrl, 'PATCH', `${rs}/settings`, session.token, { enabled: true, delivery_fee: 150 });
  const category = await call<{ id: string }>(baseUrl, 'POST', `${rs}/menu/categories`, session.token, {
    name: 'Кухня',
  });
  const items = await mapConcurrently(10, 5, (i) =>
    call<{ id: string }>(baseUrl, 'POST', `${rs}/menu/items`, session.token, {
      category_id: category.id,
      name: `Блюдо ${i + 1}`,
      price: 250 + i * 40,
    }),
  );
  const proof = { 'content-type': 'application/json', 'x-room': stay.room.number, 'x-stay-code': stay.code };
  const orderIds: string[] = [];
  const refusals = new Map<number, number>();
  const place = await runLoad(CLIENTS, durationMs, async (client) => {
    const response = await fetch(`${baseUrl}${rs}/guest/orders`, {
      method: 'POST',
      headers: proof,
      body: JSON.stringify({
        items: [
          { item_id: items[client % items.length].id, quantity: 2 },
          { item_id: items[(client + 3) % items.length].id, quantity: 1 },
        ],
      }),
    });
    const body = (await response.json()) as { order?: { id: string } };
    if (response.status === 201 && body.order) orderIds.push(body.order.id);
    else refusals.set(response.status, (refusals.get(response.status) ?? 0) + 1);
    return response.status === 201;
  });
  const lines = [
    `room service: one stay in house, a menu of ${items.length} items`,
    `POST guest/orders (stay code proof, priced from the menu, ${CLIENTS} clients): ${formatLoad(place)}`,
  ];
  if (refusals.size)
    lines.push(`  refused: ${[...refusals].map(([status, count]) => `${count} × ${status}`).join(', ')}`);
  const list = await runLoad(CLIENTS, durationMs, async () => {
    await call(baseUrl, 'GET', `${rs}/orders?limit=50`, session.token);
    return true;
  });
  lines.push(`GET orders, first page of ${orderIds.length} orders (${CLIENTS} clients):  ${formatLoad(list)}`);

  const move = (id: string, status: string) =>
    call(baseUrl, 'POST', `${rs}/orders/${id}/status`, session.token, { status });
  const deliveries: number[] = [];
  await mapConcurrently(Math.min(DELIVERIES, orderIds.length), 10, async (i) => {
    await move(orderIds[i], 'accepted');
    await move(orderIds[i], 'preparing');
    const t0 = performance.now();
    await move(orderIds[i], 'delivered');
    deliveries.push(performance.now() - t0);
  });
  deliveries.sort((a, b) => a - b);
  const charges = await call<unknown[]>(
    baseUrl,
    'GET',
    `${session.hotel}/bookings/${stay.booking.id}/charges`,
    session.token,
  );
  lines.push(
    `delivered (order, bill line and balance in one transaction; 10 at once on one stay): ${deliveries.length} moves, ` +
      `${ms(deliveries)}; ${charges.length} bill lines`,
  );
  return lines;
}

/** Loyalty: a guest's account (tier and balance summed from the ledger) and ledger pages, over a long ledger. */
async function benchLoyalty(baseUrl: string, db: Db, session: Session): Promise<string[]> {
  const stay = await stayInHouse(baseUrl, session);
  await call(baseUrl, 'PATCH', `${session.hotel}/loyalty/settings`, session.token, { enabled: true });
  const { id: hotelId } = (await db('hotels')
    .where({ slug: session.hotel.split('/').pop() })
    .first('id')) as {
    id: string;
  };
  for (let from = 0; from < LEDGER_ROWS; from += INSERT_BATCH) {
    const rows = Array.from({ length: Math.min(INSERT_BATCH, LEDGER_ROWS - from) }, (_, i) => ({
      hotel_id: hotelId,
      guest_id: stay.guest.id,
      points: (from + i) % 5 === 4 ? -10 : 20,
      reason: 'adjustment',
      note: 'Начисление для замера',
      created_at: new Date(Date.now() - (LEDGER_ROWS - from - i) * 60_000),
    }));
    await db('loyalty_entries').insert(rows);
  }
  const account = await timedReads(baseUrl, session, `/guests/${stay.guest.id}/loyalty`);
  const entries = await timedReads(baseUrl, session, `/guests/${stay.guest.id}/loyalty/entries?limit=50`);
  return [
    `loyalty: one guest with ${LEDGER_ROWS} ledger rows (${READS} reads each, one at a time)`,
    `GET guests/{id}/loyalty (tier, balance = sum of the ledger):    ${ms(account)}`,
    `GET guests/{id}/loyalty/entries, first page of 50:               ${ms(entries)}`,
  ];
}

/** Reviews: the staff list and the averages per aspect and month over many reviews (inserted with SQL). */
async function benchReviews(baseUrl: string, db: Db, session: Session): Promise<string[]> {
  const stay = await stayInHouse(baseUrl, session);
  const template = (await db('bookings').where({ id: stay.booking.id }).first()) as Record<string, unknown>;
  const { id: _id, ...copy } = template;
  for (let from = 0; from < REVIEWS; from += INSERT_BATCH) {
    const count = Math.min(INSERT_BATCH, REVIEWS - from);
    const stays = Array.from({ length: count }, (_, i) => {
      const start = new Date(Date.now() - (from + i + 2) * 40 * 60_000);
      return { ...copy, status: 'checked_out', start_at: start, end_at: new Date(start.getTime() + 3_600_000) };
    });
    const bookings = (await db('bookings').insert(stays).returning(['id', 'start_at'])) as {
      id: string;
      start_at: Date;
    }[];
    const invitations = (await db('review_invitations')
      .insert(
        bookings.map((booking) => ({
          hotel_id: template.hotel_id,
          booking_id: booking.id,
          token_sha256: createHash('sha256').update(randomUUID()).digest('hex'),
          email: 'guest@example.test',
          guest_first_name: 'Бенч',
          stay_from: booking.start_at.toISOString().slice(0, 10),
          stay_to: booking.start_at.toISOString().slice(0, 10),
          claimed_at: booking.start_at,
          sent_at: booking.start_at,
          used_at: booking.start_at,
          expires_at: new Date(booking.start_at.getTime() + 60 * 86_400_000),
        })),
      )
      .returning(['id', 'booking_id', 'stay_from'])) as { id: string; booking_id: string; stay_from: string }[];
    await db('reviews').insert(
      invitations.map((invitation, i) => ({
        hotel_id: template.hotel_id,
        booking_id: invitation.booking_id,
        invitation_id: invitation.id,
        overall: 1 + ((from + i) % 5),
        cleanliness: 1 + ((from + i) % 4),
        staff: 5,
        comfort: 1 + ((from + i) % 3),
        value: 4,
        comment: 'Всё понравилось',
        guest_first_name: 'Бенч',
        stay_from: invitation.stay_from,
        stay_to: invitation.stay_from,
        status: (from + i) % 7 === 0 ? 'hidden' : 'published',
        created_at: bookings[i].start_at,
      })),
    );
  }
  const summary = await timedReads(baseUrl, session, `/reviews/summary?from=${day(-700)}&to=${day(0)}`);
  const page = await timedReads(baseUrl, session, '/reviews?limit=50');
  const low = await timedReads(baseUrl, session, '/reviews?limit=50&max_rating=2');
  return [
    `reviews: ${REVIEWS} reviews over ${Math.round((REVIEWS * 40) / 60 / 24)} days (${READS} reads each, one at a time)`,
    `GET reviews/summary (averages per aspect and month, 700 days): ${ms(summary)}`,
    `GET reviews, first page of 50:                                  ${ms(page)}`,
    `GET reviews?max_rating=2, first page of 50:                     ${ms(low)}`,
  ];
}

/** Guest services on the running API: room service, loyalty and reviews, each in its own hotel of `owners`. */
export async function benchGuestServices(
  baseUrl: string,
  db: Db,
  owners: [string, string, string],
  durationMs: number,
): Promise<string[]> {
  const [roomService, loyalty, reviews] = await Promise.all(owners.map((email) => signIn(baseUrl, email)));
  return [
    ...(await benchRoomService(baseUrl, roomService, durationMs)),
    '',
    ...(await benchLoyalty(baseUrl, db, loyalty)),
    '',
    ...(await benchReviews(baseUrl, db, reviews)),
  ];
}
