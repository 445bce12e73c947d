import { addStaff, as, registerHotel, type RegisteredHotel } from '../helpers/accounts';
import { createTestApp, type TestApp } from '../helpers/app';
import { localDay } from '../helpers/dates';
import { createCategory, createRoom } from '../helpers/structure';
import { readTimeline } from '../helpers/timeline';

interface Entry {
  at: string;
  kind: string;
  summary: string;
  actor: { type: string; id?: string } | null;
}
interface Timeline {
  entries: Entry[];
  truncated: boolean;
  cut_sources: string[];
}

/** One more than a source reads (its latest 200). */
const PAYMENTS = 201;

let t: TestApp;
let owner: RegisteredHotel;
let desk: Awaited<ReturnType<typeof addStaff>>;
let stayId: string;
let rooms: { id: string; number: string }[];

const api = (path: string) => `/api/hotels/${owner.slug}${path}`;
const timelineOf = (id: string, token = desk.accessToken) => readTimeline<Timeline>(t, owner, id, token);

beforeAll(async () => {
  t = createTestApp();
  owner = await registerHotel(t);
  desk = await addStaff(t, owner, 'receptionist');
  const category = await createCategory(t, owner);
  rooms = [];
  for (let i = 0; i < 3; i += 1) rooms.push(await createRoom(t, owner, category.id));
  const [a, b, c] = rooms;
  // A split stay, an inquiry the desk confirms, then checks in and moves to another room at once; then many payments
  // (each one writes the booking's paid_amount).
  const booked = await t.http
    .post(api('/bookings'))
    .set(as(owner.accessToken))
    .send({
      check_in: localDay(0),
      check_out: localDay(2),
      rooms: [
        { room_id: a.id, from: localDay(0), to: localDay(1) },
        { room_id: b.id, from: localDay(1), to: localDay(2) },
      ],
      guest_last_name: 'Долгова',
      guest_first_name: 'Анна',
      status: 'inquiry',
    })
    .expect(201);
  stayId = booked.body.id as string;
  const byDesk = as(desk.accessToken);
  await t.http
    .patch(api(`/bookings/${stayId}`))
    .set(byDesk)
    .send({ status: 'confirmed' })
    .expect(200);
  await t.http
    .patch(api(`/bookings/${stayId}`))
    .set(byDesk)
    .send({ status: 'checked_in' })
    .expect(200);
  await t.http
    .post(api(`/bookings/${stayId}/move`))
    .set(byDesk)
    .send({ room_id: c.id, reason: 'Шумные соседи' })
    .expect(200);
  for (let i = 0; i < PAYMENTS; i += 1)
    await t.http
      .post(api(`/bookings/${stayId}/payments`))
      .set(byDesk)
      .send({ amount: '1.00', method: 'cash' })
      .expect(201);
}, 180_000);
afterAll(() => t.close());

describe('GET /bookings/{id}/timeline: bounds and status moves', () => {
  it('says it was truncated, naming the source cut at its bound', async () => {
    const timeline = await timelineOf(stayId);
    expect(timeline.entries.filter((entry) => entry.kind === 'payment')).toHaveLength(200);
    expect(timeline.truncated).toBe(true);
    expect(timeline.cut_sources).toContain('money');
  });

  it('names who checked in however many later changes the booking had', async () => {
    const timeline = await timelineOf(stayId);
    expect(timeline.entries.find((entry) => entry.kind === 'checked_in')?.actor).toEqual(
      expect.objectContaining({ type: 'staff', id: desk.id }),
    );
  });

  it('shows every status move the audit log recorded, the confirmation too, with who made it', async () => {
    const timeline = await timelineOf(stayId);
    const moves = timeline.entries.filter((entry) => ['created', 'confirmed', 'checked_in'].includes(entry.kind));
    expect(moves.map(({ kind, actor }) => [kind, actor?.id])).toEqual([
      ['created', owner.userId],
      ['confirmed', desk.id],
      ['checked_in', desk.id],
    ]);
  });

  it('tells the split stay and the move at the desk however many later writes the booking row had', async () => {
    const [a, b, c] = rooms;
    const timeline = await timelineOf(stayId);
    const told = timeline.entries.filter((entry) => ['split_stay', 'room_moved'].includes(entry.kind));
    expect(told.map(({ kind, summary, actor }) => [kind, summary, actor?.id])).toEqual([
      [
        'split_stay',
        `Split stay: room ${a.number} from ${localDay(0)}, room ${b.number} from ${localDay(1)}`,
        owner.userId,
      ],
      ['room_moved', `Room ${a.number} → ${c.number}`, desk.id],
    ]);
  });
});
