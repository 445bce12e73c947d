import { randomUUID } from 'node:crypto';
import type { ReferenceAgent } from '../fakes/agent';
import { as, registerHotel, type RegisteredHotel } from '../helpers/accounts';
import { localDay } from '../helpers/dates';
import { deskWithAgent } from '../helpers/desks';
import { startTestServer, type TestServer } from '../helpers/realtime';
import { createCategory, createRoom } from '../helpers/structure';
import { until } from '../helpers/wait';

/**
 * The 54-FZ receipt of a desk payment, from what the guest folio owes: lodging, tourist tax, room service, minibar and
 * rentals each on its own line with its VAT, settlement method and object, as the reference agent's register prints it.
 */

let t: TestServer;
let hotel: RegisteredHotel;
let agent: ReferenceAgent;
let workstationId: string;
beforeAll(async () => {
  t = await startTestServer();
  hotel = await registerHotel(t);
  await t.http
    .patch(api('/payment-settings'))
    .set(as(hotel.accessToken))
    .send({ fiscal_taxation: 'osn', fiscal_vat: '0', fiscal_vat_room_service: '22' })
    .expect(200);
  await t.http
    .patch(api('/tourist-tax/settings'))
    .set(as(hotel.accessToken))
    .send({ enabled: true, rate: '2' })
    .expect(200);
  const devices = [{ name: 'АТОЛ 30Ф', type: 'fiscal_register', connection: 'usb' }];
  const desk = await deskWithAgent(t, hotel, { workstation: { name: 'Касса' }, devices });
  agent = desk.agent;
  workstationId = desk.id;
});
afterAll(async () => {
  await agent?.stop();
  await t.close();
});

function api(path: string) {
  return `/api/hotels/${hotel.slug}${path}`;
}

const send = (method: 'post' | 'patch' | 'put', path: string, body: Record<string, unknown>) =>
  t.http[method](api(path)).set(as(hotel.accessToken)).send(body);

async function folioBalance(bookingId: string) {
  const folio = await t.http
    .get(api(`/bookings/${bookingId}/folio`))
    .set(as(hotel.accessToken))
    .expect(200);
  const lines = (folio.body.folios as { lines: { kind: string; amount: string }[] }[]).flatMap((f) => f.lines);
  const tax = lines.filter((line) => line.kind === 'tourist_tax').reduce((sum, line) => sum + Number(line.amount), 0);
  return { balance: folio.body.balance as string, tax: Math.round(tax * 100) / 100 };
}

const printed = (before: number) =>
  until(() => agent.receipts.length > before && agent.receipts[before], { what: 'the receipt printed' });

/** A payment (negative: a refund) at the desk, answered with its receipt's lines as the register printed them. */
async function paidAtDesk(bookingId: string, amount: string) {
  const before = agent.receipts.length;
  await send('post', `/bookings/${bookingId}/payments`, {
    amount,
    method: 'cash',
    workstation_id: workstationId,
  }).expect(201);
  const receipt = await printed(before);
  return (receipt.task.items as Record<string, unknown>[]).map((item) => [
    item.name,
    item.amount,
    (item.tax as { type: string }).type,
  ]);
}

/** A stay of two nights from today at 8,000.00 in its own room (the tourist tax: the minimum, 100.00 a night). */
async function booked(lastName: string) {
  const room = await createRoom(t, hotel, (await createCategory(t, hotel)).id);
  const created = await send('post', '/bookings', {
    room_id: room.id,
    check_in: localDay(0),
    check_out: localDay(2),
    guest_last_name: lastName,
    guest_first_name: 'Анна',
    price: '8000.00',
  }).expect(201);
  return { id: created.body.id as string, roomId: room.id };
}

const lodgingName = () =>
  `Проживание ${localDay(0).split('-').reverse().join('.')}–${localDay(2).split('-').reverse().join('.')}`;

describe('receipts from the folio lines', () => {
  it('a stay paid at the desk after check-out: one receipt line per thing paid, with its attributes', async () => {
    const room = await createRoom(t, hotel, (await createCategory(t, hotel)).id);
    const booked = await send('post', '/bookings', {
      room_id: room.id,
      check_in: localDay(0),
      check_out: localDay(2),
      guest_last_name: 'Чекова',
      guest_first_name: 'Ольга',
      guest_email: 'olga@example.test',
      price: '8000.00',
    }).expect(201);
    const bookingId = booked.body.id as string;
    await send('patch', `/bookings/${bookingId}`, { status: 'checked_in' }).expect(200);

    const court = await send('post', '/rental-objects', {
      name: `Сауна ${randomUUID().slice(0, 6)}`,
      price_per_hour: 2500,
      price_per_day: 12000,
      is_active: true,
    }).expect(201);
    const at = (hour: number) => `${localDay(1)}T${hour}:00:00+03:00`;
    await send('post', '/rental-bookings', {
      rental_object_id: court.body.id,
      kind: 'hourly',
      start_at: at(12),
      end_at: at(14),
      guest_name: 'Чекова Ольга',
      guest_phone: '+7 999 123-45-67',
      booking_id: bookingId,
    }).expect(201);

    await send('patch', `/bookings/${bookingId}`, { status: 'checked_out' }).expect(200);
    const tasks = await t.http
      .get(api(`/housekeeping?room_id=${room.id}`))
      .set(as(hotel.accessToken))
      .expect(200);
    const task = (tasks.body as { id: string; booking_id: string }[]).find((row) => row.booking_id === bookingId)!;
    const juice = await send('post', '/minibar-items', { name: 'Сок', category: 'Напитки', price: 150 }).expect(201);
    await send('put', `/housekeeping/${task.id}/minibar`, { items: [{ item_id: juice.body.id, quantity: 2 }] }).expect(
      200,
    );

    const { balance, tax } = await folioBalance(bookingId);
    expect(tax).toBeGreaterThan(0);
    expect(Number(balance)).toBeCloseTo(8000 + tax + 300 + 5000, 2);
    const before = agent.receipts.length;
    await send('post', `/bookings/${bookingId}/payments`, {
      amount: balance,
      method: 'card',
      workstation_id: workstationId,
    }).expect(201);

    const receipt = await printed(before);
    const items = (receipt.task.items as Record<string, unknown>[]).map((item) => ({
      name: item.name,
      amount: item.amount,
      tax: (item.tax as { type: string }).type,
      paymentMethod: item.paymentMethod,
      paymentObject: item.paymentObject,
    }));
    expect(items).toEqual([
      {
        name: `Проживание ${localDay(0).split('-').reverse().join('.')}–${localDay(2).split('-').reverse().join('.')}`,
        amount: 8000,
        tax: 'vat0',
        paymentMethod: 'fullPayment',
        paymentObject: 'service',
      },
      { name: 'Туристический налог', amount: tax, tax: 'none', paymentMethod: 'fullPayment', paymentObject: 'another' },
      { name: 'Мини-бар', amount: 300, tax: 'vat22', paymentMethod: 'fullPayment', paymentObject: 'commodity' },
      { name: 'Аренда', amount: 5000, tax: 'vat22', paymentMethod: 'fullPayment', paymentObject: 'service' },
    ]);
    expect(receipt.task.payments).toEqual([{ type: 'electronically', sum: Number(balance) }]);
    expect((await folioBalance(bookingId)).balance).toBe('0.00');
  });

  it('a payment names what is still owed net of earlier receipts, a refund what was receipted', async () => {
    const stay = await booked('Зачётова');
    expect(await paidAtDesk(stay.id, '8000.00')).toEqual([[lodgingName(), 8000, 'vat0']]);
    await send('patch', `/bookings/${stay.id}`, { status: 'checked_in' }).expect(200);
    const sauna = await send('post', '/rental-objects', {
      name: `Баня ${randomUUID().slice(0, 6)}`,
      price_per_hour: 2500,
      price_per_day: 12000,
      is_active: true,
    }).expect(201);
    await send('post', '/rental-bookings', {
      rental_object_id: sauna.body.id,
      kind: 'hourly',
      start_at: `${localDay(1)}T10:00:00+03:00`,
      end_at: `${localDay(1)}T12:00:00+03:00`,
      guest_name: 'Зачётова Анна',
      guest_phone: '+7 999 765-43-21',
      booking_id: stay.id,
    }).expect(201);
    // The check-out posts the stay's nights and their tourist tax (in house, they wait for the night audit).
    await send('patch', `/bookings/${stay.id}`, { status: 'checked_out' }).expect(200);
    const { tax } = await folioBalance(stay.id);
    expect(tax).toBeGreaterThan(0);
    expect(await paidAtDesk(stay.id, (tax + 5000).toFixed(2))).toEqual([
      ['Туристический налог', tax, 'none'],
      ['Аренда', 5000, 'vat22'],
    ]);

    const tasks = await t.http
      .get(api(`/housekeeping?room_id=${stay.roomId}`))
      .set(as(hotel.accessToken))
      .expect(200);
    const task = (tasks.body as { id: string; booking_id: string }[]).find((row) => row.booking_id === stay.id)!;
    const water = await send('post', '/minibar-items', { name: 'Вода', category: 'Напитки', price: 150 }).expect(201);
    const minibar = `/housekeeping/${task.id}/minibar`;
    await send('put', minibar, { items: [{ item_id: water.body.id, quantity: 2 }] }).expect(200);
    expect(await paidAtDesk(stay.id, '300.00')).toEqual([['Мини-бар', 300, 'vat22']]);

    // The count corrected to nothing: the money given back is the minibar's, not the lodging's.
    await send('put', minibar, { items: [] }).expect(200);
    expect(await paidAtDesk(stay.id, '-300.00')).toEqual([['Мини-бар', 300, 'vat22']]);
  });

  it('a stay paid in full at check-in pays the tax of its nights to come as the tax, not as lodging', async () => {
    const stay = await booked('Заранеева');
    await send('patch', `/bookings/${stay.id}`, { status: 'checked_in' }).expect(200);
    // No night passed yet: none is posted, but two nights' tax (the minimum, 100.00 each) is owed with the lodging.
    expect((await folioBalance(stay.id)).tax).toBe(0);
    expect(await paidAtDesk(stay.id, '8200.00')).toEqual([
      [lodgingName(), 8000, 'vat0'],
      ['Туристический налог', 200, 'none'],
    ]);
  });

  it("a service posted to the guest folio is paid at its own VAT rate, not as the lodging's", async () => {
    const stay = await booked('Услугова');
    await send('patch', `/bookings/${stay.id}`, { status: 'checked_in' }).expect(200);
    await send('post', `/bookings/${stay.id}/folio/lines`, {
      kind: 'service',
      amount: '1000.00',
      vat_rate: '22',
      description: 'Трансфер из аэропорта',
    }).expect(201);
    // The check-out posts the stay's nights and their tourist tax: the balance is the whole bill.
    await send('patch', `/bookings/${stay.id}`, { status: 'checked_out' }).expect(200);
    const { balance, tax } = await folioBalance(stay.id);
    expect(Number(balance)).toBeCloseTo(8000 + tax + 1000, 2);
    expect(await paidAtDesk(stay.id, balance)).toEqual([
      [lodgingName(), 8000, 'vat0'],
      ['Туристический налог', tax, 'none'],
      ['Услуги', 1000, 'vat22'],
    ]);
  });

  it('a prepayment before the stay stays one lodging line at the calculated rate', async () => {
    await send('patch', '/payment-settings', { fiscal_vat: '20' }).expect(200);
    const room = await createRoom(t, hotel, (await createCategory(t, hotel)).id);
    const booked = await send('post', '/bookings', {
      room_id: room.id,
      check_in: localDay(3),
      check_out: localDay(4),
      guest_last_name: 'Авансова',
      guest_first_name: 'Ирина',
      price: '5000.00',
    }).expect(201);
    const before = agent.receipts.length;
    await send('post', `/bookings/${booked.body.id}/payments`, {
      amount: '1000',
      method: 'cash',
      workstation_id: workstationId,
    }).expect(201);
    const receipt = await printed(before);
    expect(receipt.task.items).toEqual([
      expect.objectContaining({ amount: 1000, tax: { type: 'vat120' }, paymentMethod: 'prepayment' }),
    ]);
  });
});
