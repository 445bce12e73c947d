import { addStaff, as, registerHotel, type RegisteredHotel } from '../helpers/accounts';
import { createTestApp, type TestApp } from '../helpers/app';
import { localDay } from '../helpers/dates';
import { createCategory, createRoom } from '../helpers/structure';
import { until } from '../helpers/wait';

interface Actor {
  type: string;
  id?: string;
  name?: string | null;
  role?: string | null;
}
interface Entry {
  at: string;
  kind: string;
  summary: string;
  actor: Actor | null;
}
interface Timeline {
  booking_id: string;
  entries: Entry[];
  truncated: boolean;
  upcoming: { available: boolean; reason?: string; entries: Entry[] };
}

/** The review invitation an hour after the check-out (decided by the API process), so it is still to come. */
const INVITATION_DELAY_MS = 3_600_000;

let t: TestApp;
let owner: RegisteredHotel;
let desk: Awaited<ReturnType<typeof addStaff>>;
let stayId: string;
let checkedOutAt: number;

const api = (path: string) => `/api/hotels/${owner.slug}${path}`;
const timelineOf = (id: string, token = desk.accessToken, app = t) =>
  app.http.get(api(`/bookings/${id}/timeline`)).set(as(token));

/** A stay taken through its life at the desk: booked (for the site, so the guest is e-mailed), paid, a cash deposit, checked in, room service, checked out. */
async function realLife(): Promise<string> {
  const category = await createCategory(t, owner);
  const room = await createRoom(t, owner, category.id);
  const booked = await t.http
    .post(api('/bookings'))
    .set(as(owner.accessToken))
    .send({
      room_id: room.id,
      check_in: localDay(-1),
      check_out: localDay(2),
      guest_last_name: 'Хронова',
      guest_first_name: 'Вера',
      guest_email: `vera-${Date.now()}@example.test`,
      status: 'confirmed',
      // Taken by phone for the site: the guest is e-mailed as an online booking's guest is.
      source: 'online',
    })
    .expect(201);
  const id = booked.body.id as string;
  const byDesk = as(desk.accessToken);
  await t.http
    .post(api(`/bookings/${id}/payments`))
    .set(byDesk)
    .send({ amount: '1000.00', method: 'cash' })
    .expect(201);
  await t.http
    .post(api(`/bookings/${id}/deposit`))
    .set(byDesk)
    .send({ kind: 'cash', amount: '500.00' })
    .expect(201);
  await t.http
    .patch(api(`/bookings/${id}`))
    .set(byDesk)
    .send({ notes: 'Поздний заезд' })
    .expect(200);
  await t.http
    .patch(api(`/bookings/${id}`))
    .set(byDesk)
    .send({ status: 'checked_in' })
    .expect(200);
  const kitchen = await t.http
    .post(api('/room-service/menu/categories'))
    .set(as(owner.accessToken))
    .send({ name: 'Кухня' })
    .expect(201);
  const soup = await t.http
    .post(api('/room-service/menu/items'))
    .set(as(owner.accessToken))
    .send({ category_id: kitchen.body.id, name: 'Борщ', price: 350 })
    .expect(201);
  await t.http
    .post(api('/room-service/orders'))
    .set(byDesk)
    .send({ booking_id: id, items: [{ item_id: soup.body.id, quantity: 2 }] })
    .expect(201);
  await t.http
    .patch(api(`/bookings/${id}`))
    .set(byDesk)
    .send({ status: 'checked_out' })
    .expect(200);
  checkedOutAt = Date.now();
  return id;
}

beforeAll(async () => {
  t = createTestApp({ REVIEW_INVITATION_DELAY_MS: String(INVITATION_DELAY_MS) });
  owner = await registerHotel(t);
  desk = await addStaff(t, owner, 'receptionist');
  await t.http
    .patch(api('/review-settings'))
    .set(as(owner.accessToken))
    .send({ invitations_enabled: true })
    .expect(200);
  await t.http
    .patch(api('/room-service/settings'))
    .set(as(owner.accessToken))
    .send({ enabled: true, minimum_order: '0' })
    .expect(200);
  stayId = await realLife();
});
afterAll(() => t.close());

describe('GET /bookings/{id}/timeline', () => {
  it('shows a real stay in order, each entry with who did it', async () => {
    // The guest's e-mail is sent by the booking's workflow, after the commit: awaited as a client would.
    const { body } = await until(
      async () => {
        const read = await timelineOf(stayId).expect(200);
        return read.body.entries.some((entry: Entry) => entry.kind === 'guest_email') && read;
      },
      { what: "the guest's e-mail in the timeline" },
    );
    const timeline = body as Timeline;
    expect(timeline.booking_id).toBe(stayId);
    expect(timeline.truncated).toBe(false);
    const times = timeline.entries.map((entry) => entry.at);
    expect(times).toEqual([...times].sort());

    const ownerActor = { type: 'staff', id: owner.userId, name: expect.any(String), role: 'hotel_admin' };
    const deskActor = { type: 'staff', id: desk.id, name: 'Staff receptionist', role: 'receptionist' };
    const desked = ['created', 'payment', 'deposit', 'changed', 'checked_in', 'room_service_order', 'checked_out'];
    expect(timeline.entries.filter((entry) => desked.includes(entry.kind))).toEqual([
      { at: expect.any(String), kind: 'created', summary: 'Booked (online)', actor: ownerActor },
      { at: expect.any(String), kind: 'payment', summary: '1000.00 (cash)', actor: deskActor },
      { at: expect.any(String), kind: 'deposit', summary: 'cash 500.00 RUB', actor: deskActor },
      // A change the audit log recorded: its fields are named only to those who may read the log (not the desk).
      { at: expect.any(String), kind: 'changed', summary: 'Changed', actor: deskActor },
      { at: expect.any(String), kind: 'checked_in', summary: 'Checked in', actor: deskActor },
      {
        at: expect.any(String),
        kind: 'room_service_order',
        summary: expect.stringMatching(/^Order №\d+, 700.00$/),
        // Placed by the desk: the audit log's entry of the order says so.
        actor: deskActor,
      },
      { at: expect.any(String), kind: 'checked_out', summary: 'Checked out', actor: deskActor },
    ]);
    // The cash deposit was taken at the desk, not confirmed by a provider.
    expect(timeline.entries.find((entry) => entry.kind === 'deposit_confirmed')?.actor).toEqual(deskActor);
    // Notifications of what other entries tell (the booking made, the room-service order) are not repeated.
    expect(timeline.entries.filter((entry) => entry.kind === 'notification')).toEqual([]);
    expect(timeline.entries).toContainEqual({
      at: expect.any(String),
      kind: 'guest_email',
      summary: expect.stringMatching(/^E-mail to the guest: (received|confirmed)$/),
      actor: { type: 'system', name: 'bookingLife' },
    });
  });

  it('names who closed a deposit, with its amount and what was captured', async () => {
    await t.http
      .post(api(`/bookings/${stayId}/deposit/release`))
      .set(as(desk.accessToken))
      .send({ items: [] })
      .expect(202);
    const { body } = await until(
      async () => {
        const read = await timelineOf(stayId).expect(200);
        return read.body.entries.some((entry: Entry) => entry.kind === 'deposit_closed') && read;
      },
      { what: 'the deposit closed in the timeline' },
    );
    expect((body as Timeline).entries.find((entry) => entry.kind === 'deposit_closed')).toEqual({
      at: expect.any(String),
      kind: 'deposit_closed',
      summary: 'released, 500.00 RUB (captured 0.00)',
      actor: expect.objectContaining({ type: expect.any(String) }),
    });
  });

  it("tells the deposit's statement e-mailed to the guest once it was released", async () => {
    const sent = await until(
      async () => {
        const { body } = await timelineOf(stayId).expect(200);
        return (body as Timeline).entries.find((entry) => entry.summary.includes('deposit statement'));
      },
      { what: 'the deposit statement in the timeline' },
    );
    expect(sent).toEqual({
      at: expect.any(String),
      kind: 'guest_email',
      summary: 'E-mail to the guest: deposit statement',
      actor: { type: 'system', name: 'deposit' },
    });
  });

  it('shows what is still to come: the review invitation at its time, from the booking workflow', async () => {
    const { body } = await until(
      async () => {
        const read = await timelineOf(stayId).expect(200);
        return read.body.upcoming.entries.length > 0 && read;
      },
      { what: 'the review invitation in the upcoming part' },
    );
    const { upcoming } = body as Timeline;
    expect(upcoming).toEqual({
      available: true,
      entries: [
        {
          at: expect.any(String),
          kind: 'review_invitation',
          summary: 'The review invitation is sent to the guest',
          actor: { type: 'system', name: 'bookingLife' },
        },
      ],
    });
    const at = Date.parse(upcoming.entries[0].at);
    expect(at).toBeGreaterThan(checkedOutAt + INVITATION_DELAY_MS - 60_000);
    expect(at).toBeLessThanOrEqual(checkedOutAt + INVITATION_DELAY_MS);
  });

  it('still answers without the upcoming part, saying so, when Temporal cannot be reached', async () => {
    const cut = createTestApp({ TEMPORAL_ADDRESS: '127.0.0.1:1' });
    try {
      const { body } = await timelineOf(stayId, desk.accessToken, cut).expect(200);
      const timeline = body as Timeline;
      expect(timeline.entries.map((entry) => entry.kind)).toContain('checked_out');
      expect(timeline.upcoming).toEqual({ available: false, reason: expect.any(String), entries: [] });
    } finally {
      await cut.close();
    }
  });

  it('names the fields a change wrote to those who may read the audit log: managers and security', async () => {
    for (const role of ['manager', 'security'] as const) {
      const reader = await addStaff(t, owner, role);
      const { body } = await timelineOf(stayId, reader.accessToken).expect(200);
      const changed = (body as Timeline).entries.filter((entry) => entry.kind === 'changed');
      expect(changed.map((entry) => entry.summary)).toEqual(['Changed: notes']);
    }
  });

  it('is for the front desk, managers and security; another hotel gets 404, an unknown booking 404', async () => {
    const manager = await addStaff(t, owner, 'manager');
    await timelineOf(stayId, manager.accessToken).expect(200);
    const housekeeper = await addStaff(t, owner, 'housekeeper');
    await timelineOf(stayId, housekeeper.accessToken).expect(403);
    const other = await registerHotel(t);
    await t.http.get(`/api/hotels/${other.slug}/bookings/${stayId}/timeline`).set(as(other.accessToken)).expect(404);
    await timelineOf('00000000-0000-4000-8000-000000000000').expect(404);
  });
});
