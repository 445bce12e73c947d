import { randomUUID } from 'node:crypto';
import type { ReceiptInput } from '../../src/integrations/atol';
import type { PrepareReceipt } from '../../src/modules/fiscal';
import { fiscalModule } from '../../src/modules/fiscal/fiscal.module';
import { moduleActivities } from '../../src/platform/modules';
import type { FiscalActivities } from '../../workflows/contracts/fiscal';
import { addStaff, as, registerHotel, type RegisteredHotel } from '../helpers/accounts';
import { createTestApp, type TestApp } from '../helpers/app';
import { localDay } from '../helpers/dates';

let t: TestApp;
let owner: RegisteredHotel;
let other: RegisteredHotel;
let desk: { workstation: string; register: string; printer: string };

const receipts = (hotel: RegisteredHotel, path = '') => `/api/hotels/${hotel.slug}/fiscal-receipts${path}`;

async function deskOf(hotel: RegisteredHotel) {
  const post = async (path: string, body: Record<string, unknown>) =>
    (
      await t.http
        .post(`/api/hotels/${hotel.slug}/workstations${path}`)
        .set(as(hotel.accessToken))
        .send(body)
        .expect(201)
    ).body as { id: string };
  const workstation = await post('', { name: 'Ресепшн' });
  const device = (body: Record<string, unknown>) => post(`/${workstation.id}/devices`, body);
  const register = await device({ name: 'АТОЛ 30Ф', type: 'fiscal_register', connection: 'usb', fiscal_mode: 'atol' });
  const printer = await device({ name: 'Принтер', type: 'printer', connection: 'windows' });
  return { workstation: workstation.id, register: register.id, printer: printer.id };
}

const receipt = (amount = '2500.00'): ReceiptInput => ({
  operator: { name: 'Администратор' },
  taxation: 'usn_income',
  customer: { email: 'guest@example.test' },
  lines: [
    { name: 'Проживание', unitPrice: amount, quantity: 1, vat: 'none', method: 'full_payment', object: 'service' },
  ],
  payments: [{ kind: 'card', amount }],
});

const prepare = (input: Partial<PrepareReceipt> = {}, hotel = owner) =>
  t.db.transaction((trx) =>
    t.services.fiscal.prepare(trx, hotel.hotelId, {
      source_kind: 'booking_payment',
      source_id: randomUUID(),
      operation: 'sell',
      workstation_id: desk.workstation,
      device_id: desk.register,
      receipt: receipt(),
      ...input,
    }),
  );

const fiscal = {
  fiscal_document_number: 41,
  fiscal_document_sign: '0734261123',
  fn_number: '7380440800076451',
  shift_number: 3,
  receipt_number: 12,
  datetime: '2026-11-24T10:15:00+03:00',
  total: 2500,
};

beforeAll(async () => {
  t = createTestApp();
  [owner, other] = await Promise.all([registerHotel(t), registerHotel(t)]);
  desk = await deskOf(owner);
});
afterAll(() => t.close());

describe('recording receipts', () => {
  it('prepares a pending receipt with its ATOL task, once per source and operation', async () => {
    const sourceId = randomUUID();
    const first = await prepare({ source_id: sourceId });
    expect(first).toMatchObject({
      status: 'pending',
      total: '2500.00',
      fiscal: null,
      error_code: null,
      task: {
        type: 'sell',
        taxationType: 'usnIncome',
        clientInfo: { emailOrPhone: 'guest@example.test' },
        items: [{ name: 'Проживание', amount: 2500, tax: { type: 'none' } }],
        payments: [{ type: 'electronically', sum: 2500 }],
        total: 2500,
      },
    });
    const again = await prepare({ source_id: sourceId, receipt: receipt('100.00') });
    expect(again.id).toBe(first.id);
    expect(again.total).toBe('2500.00');
    const refund = await prepare({ source_id: sourceId, operation: 'sellReturn' });
    expect(refund.id).not.toBe(first.id);
    expect(refund.task.type).toBe('sellReturn');
    const both = await t.services.fiscal.forSource(owner.hotelId, 'booking_payment', sourceId);
    expect(both.map((row) => row.operation)).toEqual(['sell', 'sellReturn']);
  });

  it('refuses a receipt the register would refuse, and a device that is not a fiscal register', async () => {
    const unbalanced = receipt();
    unbalanced.payments = [{ kind: 'cash', amount: '1.00' }];
    await expect(prepare({ receipt: unbalanced })).rejects.toMatchObject({
      status: 422,
      code: 'fiscal_receipt_invalid',
    });
    await expect(prepare({ device_id: desk.printer })).rejects.toMatchObject({ status: 422 });
    await expect(prepare({ device_id: randomUUID() })).rejects.toMatchObject({ status: 404 });
  });

  it('stores the fiscal attributes of a printed receipt; a late failure does not undo it', async () => {
    const pending = await prepare();
    const printed = await t.services.fiscal.markPrinted(owner.hotelId, pending.id, { fiscal });
    expect(printed).toMatchObject({
      status: 'printed',
      fiscal: { ...fiscal, datetime: '2026-11-24T07:15:00.000Z', total: '2500.00' },
    });
    const late = await t.services.fiscal.markFailed(owner.hotelId, pending.id, { code: 'timeout', message: '' });
    expect(late).toMatchObject({ status: 'printed', error_code: null });
  });

  it('keeps a refused receipt visible, in words staff understand', async () => {
    const pending = await prepare();
    const failed = await t.services.fiscal.markFailed(owner.hotelId, pending.id, {
      code: 'shift_expired',
      message: 'Смена превысила 24 часа',
    });
    expect(failed).toMatchObject({
      status: 'failed',
      error_code: 'shift_expired',
      error_message: 'Смена на кассе идёт больше 24 часов: закройте смену и повторите печать: Смена превысила 24 часа',
    });
    const incomplete = await t.services.fiscal.markPrinted(owner.hotelId, (await prepare()).id, { fiscal: {} });
    expect(incomplete).toMatchObject({ status: 'failed', error_code: 'invalid_answer' });
    expect(incomplete.error_message).toMatch(/^Касса вернула неполные фискальные реквизиты/);
  });
});

describe('the fiscalReceipt workflow’s activities', () => {
  // As the worker registers them: behind the activity boundary, which gives refusals the module's failure type.
  const activities = () =>
    moduleActivities(fiscalModule, t.services.fiscal, {} as never, {} as never) as FiscalActivities;

  it('tell where a receipt stands and record its outcome', async () => {
    const pending = await prepare();
    const ref = { hotelId: owner.hotelId, receiptId: pending.id };
    expect(await activities().fiscalReceiptStatus(ref)).toBe('pending');
    expect(await activities().markFiscalReceiptPrinted({ ...ref, result: { fiscal } })).toBe('printed');
    const failed = await prepare();
    const failure = { code: 'device_busy', message: '' };
    expect(
      await activities().markFiscalReceiptFailed({ hotelId: owner.hotelId, receiptId: failed.id, error: failure }),
    ).toBe('failed');
  });

  it('fail for good on a receipt that is not there', async () => {
    await expect(
      activities().fiscalReceiptStatus({ hotelId: other.hotelId, receiptId: (await prepare()).id }),
    ).rejects.toMatchObject({
      nonRetryable: true,
      type: 'FiscalReceiptUnavailable',
      message: 'Фискальный чек не найден',
    });
  });
});

describe('GET /fiscal-receipts', () => {
  it('lists newest first with filters, and reads one', async () => {
    const failed = await prepare();
    await t.services.fiscal.markFailed(owner.hotelId, failed.id, { code: 'fiscal_refused', message: 'Ошибка 42' });
    const list = await t.http
      .get(receipts(owner))
      .query({ status: 'failed', from: localDay(-1), to: localDay(1) })
      .set(as(owner.accessToken))
      .expect(200);
    expect(list.body[0]).toMatchObject({
      id: failed.id,
      status: 'failed',
      error_message: 'Касса отказалась печатать чек: Ошибка 42',
    });
    expect(list.body.every((row: { status: string }) => row.status === 'failed')).toBe(true);
    const read = await t.http
      .get(receipts(owner, `/${failed.id}`))
      .set(as(owner.accessToken))
      .expect(200);
    expect(read.body).toMatchObject({ id: failed.id, source_kind: 'booking_payment', task: { type: 'sell' } });
    const yesterday = await t.http
      .get(receipts(owner))
      .query({ to: localDay(-1) })
      .set(as(owner.accessToken))
      .expect(200);
    expect(yesterday.body).toEqual([]);
  });

  it('pages with a cursor', async () => {
    await Promise.all([prepare(), prepare(), prepare()]);
    const first = await t.http.get(receipts(owner)).query({ limit: 2 }).set(as(owner.accessToken)).expect(200);
    expect(first.body).toHaveLength(2);
    const next = await t.http
      .get(receipts(owner))
      .query({ limit: 2, cursor: first.headers['x-next-cursor'] })
      .set(as(owner.accessToken))
      .expect(200);
    expect(next.body.map((row: { id: string }) => row.id)).not.toContain(first.body[0].id);
  });

  it.each([
    [{ status: 'lost' }],
    [{ source_kind: 'minibar' }],
    [{ from: '2026-02-30' }],
    [{ from: '2020-01-01', to: '2026-01-01' }],
    [{ from: '2026-01-02', to: '2026-01-01' }],
    [{ limit: 501 }],
  ])('400 for the query %j', async (query) => {
    await t.http.get(receipts(owner)).query(query).set(as(owner.accessToken)).expect(400);
  });

  it('another hotel sees none of them', async () => {
    const mine = await prepare();
    await t.http
      .get(receipts(other, `/${mine.id}`))
      .set(as(other.accessToken))
      .expect(404);
    const list = await t.http.get(receipts(other)).set(as(other.accessToken)).expect(200);
    expect(list.body).toEqual([]);
    await expect(t.services.fiscal.byId(other.hotelId, mine.id)).rejects.toMatchObject({ status: 404 });
    await expect(t.services.fiscal.markPrinted(other.hotelId, mine.id, { fiscal })).rejects.toMatchObject({
      status: 404,
    });
    await expect(prepare({}, other)).rejects.toMatchObject({ status: 404 });
  });

  it.each([
    ['accountant', 200],
    ['receptionist', 200],
    ['manager', 200],
    ['housekeeper', 403],
    ['security', 403],
    ['technician', 403],
  ])('%s: %p', async (role, status) => {
    const staff = await addStaff(t, owner, role);
    const { id } = await prepare();
    await t.http.get(receipts(owner)).set(as(staff.accessToken)).expect(status);
    await t.http
      .get(receipts(owner, `/${id}`))
      .set(as(staff.accessToken))
      .expect(status);
  });

  it('404 for an unknown receipt, 400 for a malformed id', async () => {
    await t.http
      .get(receipts(owner, `/${randomUUID()}`))
      .set(as(owner.accessToken))
      .expect(404);
    await t.http.get(receipts(owner, '/not-a-uuid')).set(as(owner.accessToken)).expect(400);
  });
});
