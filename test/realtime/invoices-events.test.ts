import { fixtureRequisites } from '../../src/modules/invoices/invoices.fixtures';
import { as, registerHotel, type RegisteredHotel } from '../helpers/accounts';
import { localDay } from '../helpers/dates';
import { connectStaff, startTestServer, type StaffClient, type TestServer } from '../helpers/realtime';
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

const api = (path: string) => `/api/hotels/${owner.slug}${path}`;
const post = (path: string, body: object) => t.http.post(api(path)).set(as(owner.accessToken)).send(body);
const about = (invoiceId: string, change: string) => (message: { type: string; payload?: Record<string, unknown> }) =>
  message.type === 'invoice_updated' && message.payload?.invoice_id === invoiceId && message.payload.change === change;

describe('invoice realtime events', () => {
  it('the desk hears an invoice issued, paid and cancelled; another hotel hears nothing', async () => {
    await t.http.patch(api('/settings')).set(as(owner.accessToken)).send(fixtureRequisites('ws')).expect(200);
    const room = await createRoom(t, owner, (await createCategory(t, owner)).id);
    const booking = await post('/bookings', {
      room_id: room.id,
      check_in: localDay(0),
      check_out: localDay(1),
      guest_last_name: 'Слушатель',
      guest_first_name: 'Пётр',
    }).expect(201);
    const line = await post(`/bookings/${booking.body.id}/folio/lines`, {
      kind: 'service',
      amount: '500',
      description: 'Трансфер',
    }).expect(201);
    const invoice = (await post('/invoices', { folio_id: line.body.folio_id }).expect(201)).body as {
      id: string;
      number: string;
    };
    const payload = { invoice_id: invoice.id, booking_id: booking.body.id, number: invoice.number };
    expect((await desk.next(about(invoice.id, 'issued'))).payload).toEqual({
      ...payload,
      change: 'issued',
      status: 'issued',
      payment_status: 'unpaid',
    });

    await post(`/invoices/${invoice.id}/payments`, { amount: '100' }).expect(201);
    expect((await desk.next(about(invoice.id, 'paid'))).payload).toMatchObject({ payment_status: 'partially_paid' });
    // A refused payment announces nothing.
    await post(`/invoices/${invoice.id}/payments`, { amount: '1000' }).expect(422);

    const second = await post(`/bookings/${booking.body.id}/folio/lines`, {
      kind: 'service',
      amount: '70',
      description: 'Парковка',
    }).expect(201);
    const cancelled = (
      await post('/invoices', { folio_id: line.body.folio_id, line_ids: [second.body.id] }).expect(201)
    ).body as { id: string };
    await post(`/invoices/${cancelled.id}/cancel`, { reason: 'Ошибка' }).expect(201);
    expect((await desk.next(about(cancelled.id, 'cancelled'))).payload).toMatchObject({ status: 'cancelled' });

    expect(
      desk.collected.filter((m) => m.type === 'invoice_updated' && m.payload?.invoice_id === invoice.id),
    ).toHaveLength(2);
    expect(stranger.collected.some((m) => m.type === 'invoice_updated')).toBe(false);
  });
});
