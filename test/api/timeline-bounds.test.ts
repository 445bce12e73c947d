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

const api = (path: string) => `/api/hotels/${owner.slug}${path}`;
const timelineOf = (id: string, token = desk.accessToken) => readTimeline<Timeline>(t, owner, id, token);

beforeAll(async () => {
  t = createTestApp();
  owner = await registerHotel(t);
  desk = await addStaff(t, owner, 'receptionist');
  const category = await createCategory(t, owner);
  const room = await createRoom(t, owner, category.id);
  // An inquiry the desk confirms, then checks in; then many payments (each one writes the booking's paid_amount).
  const booked = await t.http
    .post(api('/bookings'))
    .set(as(owner.accessToken))
    .send({
      room_id: room.id,
      check_in: localDay(0),
      check_out: localDay(2),
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
});
