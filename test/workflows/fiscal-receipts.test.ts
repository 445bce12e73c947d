import type { ReferenceAgent } from '../fakes/agent';
import { as, registerHotel, type RegisteredHotel } from '../helpers/accounts';
import { localDay } from '../helpers/dates';
import { deskWithAgent } from '../helpers/desks';
import { startTestServer, type TestServer } from '../helpers/realtime';
import { createCategory, createRoom } from '../helpers/structure';
import { until } from '../helpers/wait';

/**
 * Receipts for money taken at a desk: the payment's route records the receipt with the payment, the test stack's
 * worker runs `fiscalReceipt`, and the reference agent's simulated register prints it over the real channel.
 */

let t: TestServer;
let owner: RegisteredHotel;
const agents: ReferenceAgent[] = [];
beforeAll(async () => {
  t = await startTestServer();
  owner = await registerHotel(t);
  await t.http
    .patch(`/api/hotels/${owner.slug}/payment-settings`)
    .set(as(owner.accessToken))
    .send({ fiscal_taxation: 'osn', fiscal_vat: '20' })
    .expect(200);
});
afterAll(async () => {
  await Promise.all(agents.map((agent) => agent.stop()));
  await t.close();
});

const hotelPath = (rest: string) => `/api/hotels/${owner.slug}${rest}`;

interface Receipt {
  id: string;
  status: string;
  operation: string;
  total: string;
  fiscal: Record<string, unknown> | null;
  error_code: string | null;
  error_message: string | null;
  task: { type: string; taxationType: string; items: Record<string, unknown>[]; payments: Record<string, unknown>[] };
}

/** A booking of 2 nights (price from the category's base price). */
async function booking(guest: Record<string, unknown> = {}) {
  const category = await createCategory(t, owner, { base_price: 3000 });
  const room = await createRoom(t, owner, category.id);
  const created = await t.http
    .post(hotelPath('/bookings'))
    .set(as(owner.accessToken))
    .send({
      room_id: room.id,
      check_in: localDay(1),
      check_out: localDay(3),
      guest_last_name: 'Кассова',
      guest_first_name: 'Анна',
      ...guest,
    })
    .expect(201);
  return created.body as { id: string; price: string };
}

/** A desk with a fiscal register (unless told otherwise) and the reference agent connected. */
async function desk({ register = true } = {}) {
  const devices = register ? [{ name: 'АТОЛ 30Ф', type: 'fiscal_register', connection: 'usb' }] : [];
  const created = await deskWithAgent(t, owner, { workstation: { name: 'Касса 1' }, devices });
  agents.push(created.agent);
  return created;
}

const pay = (bookingId: string, body: Record<string, unknown>) =>
  t.http
    .post(hotelPath(`/bookings/${bookingId}/payments`))
    .set(as(owner.accessToken))
    .send(body);

const settled = (id: string) =>
  until(
    async () => {
      const receipt = (
        await t.http
          .get(hotelPath(`/fiscal-receipts/${id}`))
          .set(as(owner.accessToken))
          .expect(200)
      ).body as Receipt;
      return receipt.status !== 'pending' && receipt;
    },
    { what: `receipt ${id} settled`, timeoutMs: 30_000 },
  );

describe('fiscal receipts at the desk', () => {
  it('a cash payment before the stay prints a prepayment receipt and keeps its fiscal attributes', async () => {
    const stay = await booking({ guest_email: 'anna@example.test' });
    const { id: workstationId, agent } = await desk();
    const paid = await pay(stay.id, { amount: '1000', method: 'cash', workstation_id: workstationId }).expect(201);
    expect(paid.body.fiscal_receipt).toMatchObject({ status: 'pending', operation: 'sell', total: '1000.00' });
    const receipt = await settled(paid.body.fiscal_receipt.id);
    expect(receipt).toMatchObject({ status: 'printed', error_code: null });
    expect(receipt.fiscal).toMatchObject({
      fiscal_document_number: expect.any(Number),
      fiscal_document_sign: expect.any(String),
      fn_number: expect.any(String),
      total: '1000.00',
    });
    expect(agent.receipts).toHaveLength(1);
    expect(receipt.task).toMatchObject({
      type: 'sell',
      taxationType: 'osn',
      clientInfo: { emailOrPhone: 'anna@example.test' },
      payments: [{ type: 'cash', sum: 1000 }],
    });
    expect(receipt.task.items[0]).toMatchObject({
      paymentMethod: 'prepayment',
      paymentObject: 'service',
      tax: { type: 'vat120' },
      amount: 1000,
    });
  });

  it('a refund by card prints a return receipt', async () => {
    const stay = await booking();
    const { id: workstationId } = await desk();
    await pay(stay.id, { amount: stay.price, method: 'card', workstation_id: workstationId }).expect(201);
    const refund = await pay(stay.id, { amount: '-500', method: 'card', workstation_id: workstationId }).expect(201);
    const receipt = await settled(refund.body.fiscal_receipt.id);
    expect(receipt).toMatchObject({ status: 'printed', operation: 'sellReturn', total: '500.00' });
    expect(receipt.task).toMatchObject({ type: 'sellReturn', payments: [{ type: 'electronically', sum: 500 }] });
  });

  it("a register's refusal leaves a failed receipt in words staff understand", async () => {
    const stay = await booking();
    const { id: workstationId, agent } = await desk();
    agent.setFiscalRefusal('Нет бумаги');
    const paid = await pay(stay.id, { amount: '700', method: 'cash', workstation_id: workstationId }).expect(201);
    const receipt = await settled(paid.body.fiscal_receipt.id);
    expect(receipt).toMatchObject({ status: 'failed', error_code: 'fiscal_refused', fiscal: null });
    expect(receipt.error_message).toContain('Касса отказалась печатать чек');
    expect(receipt.error_message).toContain('Нет бумаги');
    const failed = await t.http.get(hotelPath('/fiscal-receipts?status=failed')).set(as(owner.accessToken)).expect(200);
    expect(failed.body.map((item: Receipt) => item.id)).toContain(receipt.id);
  });

  it('a desk offline when the money is taken prints the receipt when it reconnects, once', async () => {
    const stay = await booking();
    const { id: workstationId, agent } = await desk();
    await agent.goOffline();
    const paid = await pay(stay.id, { amount: '300', method: 'cash', workstation_id: workstationId }).expect(201);
    await until(async () => (await t.db('agent_commands').where({ workstation_id: workstationId }).first()) ?? false, {
      what: 'the receipt command recorded',
    });
    agent.goOnline();
    expect((await settled(paid.body.fiscal_receipt.id)).status).toBe('printed');
    expect(agent.receipts).toHaveLength(1);
  });

  it('no register at the desk, or money that does not pass it: 422 and nothing recorded', async () => {
    const stay = await booking();
    const { id: bare } = await desk({ register: false });
    const { id: withRegister } = await desk();
    expect((await pay(stay.id, { amount: '100', method: 'cash', workstation_id: bare }).expect(422)).body.code).toBe(
      'no_fiscal_register',
    );
    expect(
      (await pay(stay.id, { amount: '100', method: 'transfer', workstation_id: withRegister }).expect(422)).body.code,
    ).toBe('receipt_method');
    const payments = await t.http
      .get(hotelPath(`/bookings/${stay.id}/payments`))
      .set(as(owner.accessToken))
      .expect(200);
    expect(payments.body).toHaveLength(0);
    const plain = await pay(stay.id, { amount: '100', method: 'transfer' }).expect(201);
    expect(plain.body.fiscal_receipt).toBeNull();
  });
});
