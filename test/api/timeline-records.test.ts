import { addStaff, as, registerHotel, uniqueEmail, type RegisteredHotel } from '../helpers/accounts';
import { createTestApp, type TestApp } from '../helpers/app';
import { localDay } from '../helpers/dates';
import { createCategory, createRoom } from '../helpers/structure';
import { readTimeline } from '../helpers/timeline';
import { until } from '../helpers/wait';
import { fixtureRequisites } from '../../src/modules/invoices/invoices.fixtures';

interface Entry {
  at: string;
  kind: string;
  summary: string;
  actor: { type: string; id?: string; name?: string | null } | null;
}
interface Timeline {
  entries: Entry[];
  truncated: boolean;
}

let t: TestApp;
let owner: RegisteredHotel;
let desk: Awaited<ReturnType<typeof addStaff>>;

const api = (path: string) => `/api/hotels/${owner.slug}${path}`;
const timelineOf = (id: string, token = desk.accessToken) => readTimeline<Timeline>(t, owner, id, token);
const ofKinds = (timeline: Timeline, ...kinds: string[]) =>
  timeline.entries.filter((entry) => kinds.includes(entry.kind));
const staffActor = (id: string) => expect.objectContaining({ type: 'staff', id });

async function roomsIn(count: number) {
  const category = await createCategory(t, owner);
  const rooms = [];
  for (let i = 0; i < count; i += 1) rooms.push(await createRoom(t, owner, category.id));
  return rooms;
}

const book = async (body: Record<string, unknown>) =>
  (
    await t.http
      .post(api('/bookings'))
      .set(as(owner.accessToken))
      .send({ guest_last_name: 'Переездова', guest_first_name: 'Ольга', ...body })
      .expect(201)
  ).body as { id: string };

const move = (id: string, body: Record<string, unknown>) =>
  t.http
    .post(api(`/bookings/${id}/move`))
    .set(as(desk.accessToken))
    .send({ reason: 'Шумные соседи', ...body })
    .expect(200);

beforeAll(async () => {
  t = createTestApp();
  owner = await registerHotel(t);
  desk = await addStaff(t, owner, 'receptionist');
  await t.http.patch(api('/settings')).set(as(owner.accessToken)).send(fixtureRequisites('test')).expect(200);
});
afterAll(() => t.close());

describe('GET /bookings/{id}/timeline: rooms', () => {
  it('tells a split stay with its rooms in turn, and who booked it', async () => {
    const [a, b] = await roomsIn(2);
    const [d0, d1, d2] = [localDay(30), localDay(31), localDay(32)];
    const stay = await book({
      check_in: d0,
      check_out: d2,
      rooms: [
        { room_id: a.id, from: d0, to: d1 },
        { room_id: b.id, from: d1, to: d2 },
      ],
    });
    expect(ofKinds(await timelineOf(stay.id), 'split_stay', 'room_move_planned', 'room_moved')).toEqual([
      {
        at: expect.any(String),
        kind: 'split_stay',
        summary: `Split stay: room ${a.number} from ${d0}, room ${b.number} from ${d1}`,
        actor: staffActor(owner.userId),
      },
    ]);
  });

  it('tells a move planned for a later night, then the guest moved at the desk, each with who did it', async () => {
    const [a, b, c] = await roomsIn(3);
    const [yesterday, d2] = [localDay(-1), localDay(2)];
    const stay = await book({ room_id: a.id, check_in: yesterday, check_out: d2, status: 'confirmed' });
    await t.http
      .patch(api(`/bookings/${stay.id}`))
      .set(as(desk.accessToken))
      .send({ status: 'checked_in' })
      .expect(200);
    // The nights from tomorrow go to b (planned); tonight the guest goes to c at once.
    await move(stay.id, { room_id: b.id, from: localDay(1) });
    await move(stay.id, { room_id: c.id });
    const timeline = await timelineOf(stay.id);
    expect(ofKinds(timeline, 'split_stay', 'room_move_planned', 'room_moved')).toEqual([
      {
        at: expect.any(String),
        kind: 'room_move_planned',
        summary: `Move planned: room ${a.number} from ${yesterday}, room ${b.number} from ${localDay(1)}`,
        actor: staffActor(desk.id),
      },
      {
        at: expect.any(String),
        kind: 'room_moved',
        summary: `Room ${a.number} → ${c.number}`,
        actor: staffActor(desk.id),
      },
    ]);
    // Told once: not again as a change of the booking's room, nor as the staff's notification of the move.
    expect(ofKinds(timeline, 'notification')).toEqual([]);
    expect(ofKinds(timeline, 'changed')).toEqual([]);
  });
});

describe('GET /bookings/{id}/timeline: many moves', () => {
  it('tells the latest moves planned when their segments outnumber what the source reads', async () => {
    const [a, b, c, d] = await roomsIn(4);
    const [yesterday, tomorrow] = [localDay(-1), localDay(1)];
    const stay = await book({ room_id: a.id, check_in: yesterday, check_out: localDay(3), status: 'confirmed' });
    await t.http
      .patch(api(`/bookings/${stay.id}`))
      .set(as(desk.accessToken))
      .send({ status: 'checked_in' })
      .expect(200);
    // Each move replaces the stay's segments (two deleted, two written): 60 moves write some 240 segment rows; the last
    // one goes to a room none of the others did.
    for (let i = 0; i < 59; i += 1) await move(stay.id, { room_id: i % 2 === 0 ? b.id : c.id, from: tomorrow });
    await move(stay.id, { room_id: d.id, from: tomorrow });
    const planned = ofKinds(await timelineOf(stay.id), 'room_move_planned');
    expect(planned.at(-1)?.summary).toBe(
      `Move planned: room ${a.number} from ${yesterday}, room ${d.number} from ${tomorrow}`,
    );
  }, 180_000);
});

describe('GET /bookings/{id}/timeline: the books', () => {
  it('tells a deleted payment (who, how much), a line moved to a company folio and the settlement decided', async () => {
    const [room] = await roomsIn(1);
    const stay = await book({ room_id: room.id, check_in: localDay(-1), check_out: localDay(1), price: '6000.00' });
    const paid = await t.http
      .post(api(`/bookings/${stay.id}/payments`))
      .set(as(desk.accessToken))
      .send({ amount: '700.00', method: 'cash' })
      .expect(201);
    await t.http
      .delete(api(`/bookings/${stay.id}/payments/${paid.body.payment.id}`))
      .set(as(owner.accessToken))
      .expect(200);
    const folio = api(`/bookings/${stay.id}/folio`);
    const line = await t.http
      .post(`${folio}/lines`)
      .set(as(desk.accessToken))
      .send({ kind: 'service', amount: '300', vat_rate: '20', description: 'Трансфер' })
      .expect(201);
    const company = await t.http
      .post(`${folio}/companies`)
      .set(as(desk.accessToken))
      .send({ payer_name: 'ООО «Ромашка»', payer_inn: '7707083893' })
      .expect(201);
    await t.http
      .post(`${folio}/lines/${line.body.id}/move`)
      .set(as(desk.accessToken))
      .send({ folio_id: company.body.id })
      .expect(201);
    await t.http
      .post(`${folio}/settlement`)
      .set(as(owner.accessToken))
      .send({ decision: 'leave_open', note: 'Оплатит по счёту' })
      .expect(201);

    const timeline = await timelineOf(stay.id);
    expect(ofKinds(timeline, 'payment_deleted', 'folio_line_moved', 'folio_settlement')).toEqual([
      {
        at: expect.any(String),
        kind: 'payment_deleted',
        summary: expect.stringMatching(/^700\.00: .*\(cash\)$/),
        actor: staffActor(owner.userId),
      },
      {
        at: expect.any(String),
        kind: 'folio_line_moved',
        summary: 'service 300.00 moved from the guest folio to a company folio',
        actor: staffActor(desk.id),
      },
      {
        at: expect.any(String),
        kind: 'folio_settlement',
        summary: expect.stringMatching(/^leave_open: balance \d+\.\d\d$/),
        actor: staffActor(owner.userId),
      },
    ]);
    // The deleted payment is told as such, not as a folio correction.
    expect(ofKinds(timeline, 'folio_correction')).toEqual([]);
  });

  it('tells the invoice e-mailed, once its workflow has sent it, and who asked for it', async () => {
    const [room] = await roomsIn(1);
    const stay = await book({ room_id: room.id, check_in: localDay(0), check_out: localDay(2) });
    const folio = api(`/bookings/${stay.id}/folio`);
    await t.http
      .post(`${folio}/lines`)
      .set(as(desk.accessToken))
      .send({ kind: 'service', amount: '500', vat_rate: '20', description: 'Конференц-зал' })
      .expect(201);
    const folios = await t.http.get(folio).set(as(desk.accessToken)).expect(200);
    const guestFolio = (folios.body.folios as { id: string; payer_kind: string }[]).find(
      (each) => each.payer_kind === 'guest',
    )!;
    const invoice = await t.http
      .post(api('/invoices'))
      .set(as(owner.accessToken))
      .send({ folio_id: guestFolio.id })
      .expect(201);
    await t.http
      .post(api(`/invoices/${invoice.body.id}/email`))
      .set(as(desk.accessToken))
      .send({ to: uniqueEmail('guest') })
      .expect(202);
    const sent = await until(async () => ofKinds(await timelineOf(stay.id), 'invoice_email').at(0), {
      what: 'the invoice e-mail in the timeline',
    });
    expect(sent).toEqual({
      at: expect.any(String),
      kind: 'invoice_email',
      summary: `Invoice № ${invoice.body.number} e-mailed`,
      actor: staffActor(desk.id),
    });
  });
});
