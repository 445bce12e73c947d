import { uniqueEmail, addStaff, as, registerHotel, type RegisteredHotel } from '../helpers/accounts';
import { createTestApp, type TestApp } from '../helpers/app';
import { localDay } from '../helpers/dates';
import { waitForMessages } from '../helpers/mail';
import { pdfText } from '../helpers/pdf';
import { problem } from '../helpers/problem';
import { createCategory, createRoom } from '../helpers/structure';
import { Client } from 'minio';
import { createStorage } from '../../src/platform/storage';
import { fixtureRequisites } from '../../src/modules/invoices/invoices.fixtures';

let t: TestApp;
let owner: RegisteredHotel;
let other: RegisteredHotel;
const requisites = fixtureRequisites('test');

beforeAll(async () => {
  t = createTestApp();
  [owner, other] = await Promise.all([registerHotel(t), registerHotel(t)]);
  await Promise.all(
    [owner, other].map((hotel) =>
      t.http.patch(api(hotel, '/settings')).set(as(hotel.accessToken)).send(requisites).expect(200),
    ),
  );
});
afterAll(() => t.close());

const api = (hotel: RegisteredHotel, path: string) => `/api/hotels/${hotel.slug}${path}`;
const year = () => Number(localDay(0).slice(0, 4));

interface Invoice {
  id: string;
  number: string;
  folio_id: string;
  total: string;
  vat_total: string;
  paid_amount: string;
  status: string;
  payment_status: string;
  payer: { kind: string; name: string; inn: string | null };
  seller: Record<string, string>;
  lines: { folio_line_id: string; amount: string; vat_rate: string; vat_amount: string }[];
  vat: { vat_rate: string; amount: string; vat_amount: string }[];
  credit_note: { number: string; invoice_id: string } | null;
  payments: unknown[];
  emails: unknown[];
}

async function booking(hotel: RegisteredHotel) {
  const room = await createRoom(t, hotel, (await createCategory(t, hotel)).id);
  const booked = await t.http
    .post(api(hotel, '/bookings'))
    .set(as(hotel.accessToken))
    .send({
      room_id: room.id,
      check_in: localDay(0),
      check_out: localDay(2),
      guest_last_name: 'Платёжная',
      guest_first_name: 'Мария',
      price: '5000.00',
    })
    .expect(201);
  return booked.body.id as string;
}

const folioPath = (hotel: RegisteredHotel, bookingId: string) => api(hotel, `/bookings/${bookingId}/folio`);

async function guestFolio(hotel: RegisteredHotel, bookingId: string) {
  const view = await t.http.get(folioPath(hotel, bookingId)).set(as(hotel.accessToken)).expect(200);
  return (view.body.folios as { id: string; payer_kind: string; balance: string; lines: Line[] }[]).find(
    (folio) => folio.payer_kind === 'guest',
  )!;
}
interface Line {
  id: string;
  kind: string;
  amount: string;
  source: string;
}

async function postLine(hotel: RegisteredHotel, bookingId: string, amount: string, extra: object = {}) {
  const line = await t.http
    .post(`${folioPath(hotel, bookingId)}/lines`)
    .set(as(hotel.accessToken))
    .send({ kind: 'service', amount, vat_rate: '20', description: `Услуга ${amount}`, ...extra })
    .expect(201);
  return line.body as Line;
}

/** A booking's company folio with one charge on it, and its invoice. */
async function companyInvoice(name: string, amount: string) {
  const id = await booking(owner);
  const company = await t.http
    .post(`${folioPath(owner, id)}/companies`)
    .set(as(owner.accessToken))
    .send({ payer_name: name, payer_inn: '7736050003' })
    .expect(201);
  await postLine(owner, id, amount, { folio_id: company.body.id });
  const invoice = (await issue(owner, { folio_id: company.body.id }).expect(201)).body as Invoice;
  return { id, folio: company.body.id as string, invoice };
}

const issue = (hotel: RegisteredHotel, body: object, token = hotel.accessToken) =>
  t.http.post(api(hotel, '/invoices')).set(as(token)).send(body);
const read = async (hotel: RegisteredHotel, id: string) =>
  (
    await t.http
      .get(api(hotel, `/invoices/${id}`))
      .set(as(hotel.accessToken))
      .expect(200)
  ).body as Invoice;
const sequenceOf = (number: string) => Number(number.split('-').pop());

describe('requisites in the hotel settings', () => {
  const patch = (body: object) => t.http.patch(api(owner, '/settings')).set(as(owner.accessToken)).send(body);

  it.each([
    [{ inn: '7707083894' }, 'ИНН'],
    [{ inn: '77070838' }, 'ИНН'],
    [{ inn: '500100732258', kpp: null }, 'ИНН'],
    [{ kpp: '77360100' }, 'КПП'],
    [{ bik: '04452522' }, 'БИК'],
    [{ bik: 'abcdefghi' }, 'БИК'],
    [{ settlement_account: '40702810038000012345' }, 'Расчётный счёт'],
    [{ settlement_account: '407028109380000123' }, 'Расчётный счёт'],
    [{ bik: '044030653' }, 'Расчётный счёт'],
    [{ correspondent_account: '30101810400000000226' }, 'Корреспондентский счёт'],
  ])('refuses %j with a 422 naming it, changing nothing', async (body, named) => {
    const refused = await patch(body).expect(422);
    expect(refused.body.code).toBe('requisites_invalid');
    expect(refused.body.errors).toEqual(expect.arrayContaining([expect.stringContaining(named)]));
    const settings = await t.http.get(api(owner, '/settings')).set(as(owner.accessToken)).expect(200);
    expect(settings.body).toMatchObject(requisites);
  });

  it('takes an entrepreneur’s 12-digit INN without a KPP, and shows what is kept', async () => {
    const saved = await patch({ inn: '500100732259', kpp: null }).expect(200);
    expect(saved.body).toMatchObject({ ...requisites, inn: '500100732259', kpp: null });
    await patch({ inn: requisites.inn, kpp: requisites.kpp }).expect(200);
  });

  it('are needed to issue an invoice: 422 naming what is missing', async () => {
    const hotel = await registerHotel(t);
    const id = await booking(hotel);
    await postLine(hotel, id, '100');
    await t.http
      .patch(api(hotel, '/settings'))
      .set(as(hotel.accessToken))
      .send({ legal_name: 'ООО Ромашка', inn: '7707083893' })
      .expect(200);
    const refused = await issue(hotel, { folio_id: (await guestFolio(hotel, id)).id }).expect(422);
    expect(refused.body.code).toBe('invoice_requisites_missing');
    expect(refused.body.errors).toEqual([
      'КПП',
      'юридический адрес',
      'банк',
      'БИК',
      'расчётный счёт',
      'корреспондентский счёт',
    ]);
    expect((await t.http.get(api(hotel, '/invoices')).set(as(hotel.accessToken)).expect(200)).body).toEqual([]);
  });
});

describe('issuing', () => {
  it('bills the folio’s open charges to its payer with the requisites and VAT, numbered per year', async () => {
    const id = await booking(owner);
    await t.http
      .post(api(owner, `/bookings/${id}/payments`))
      .set(as(owner.accessToken))
      .send({ amount: '300', method: 'cash' })
      .expect(201);
    const service = await postLine(owner, id, '1200');
    const tax = await postLine(owner, id, '100', { vat_rate: 'none' });
    const folio = await guestFolio(owner, id);

    const issued = await issue(owner, { folio_id: folio.id }).expect(201);
    const invoice = issued.body as Invoice;
    expect(invoice.number).toMatch(new RegExp(`^${year()}-\\d{6}$`));
    expect(invoice).toMatchObject({
      folio_id: folio.id,
      total: '1300.00',
      vat_total: '200.00',
      paid_amount: '0.00',
      status: 'issued',
      payment_status: 'unpaid',
      payer: { kind: 'guest', name: 'Платёжная Мария', inn: null },
      seller: requisites,
    });
    expect(invoice.lines.map((line) => [line.folio_line_id, line.amount, line.vat_rate, line.vat_amount])).toEqual([
      [service.id, '1200.00', '20', '200.00'],
      [tax.id, '100.00', 'none', '0.00'],
    ]);

    // Every line is on it now: nothing left to invoice, and a line named again is refused.
    await issue(owner, { folio_id: folio.id }).expect(422);
    const again = await issue(owner, { folio_id: folio.id, line_ids: [service.id] }).expect(409);
    expect(again.body.code).toBe('invoice_line_invoiced');
    const payment = folio.lines.find((line) => line.kind === 'payment')!;
    expect((await issue(owner, { folio_id: folio.id, line_ids: [payment.id] }).expect(422)).body.code).toBe(
      'invoice_line_not_invoiceable',
    );

    // A later line, chosen, is the next number; the hotel's requisites changed since do not change the first.
    await t.http.patch(api(owner, '/settings')).set(as(owner.accessToken)).send({ legal_name: 'ООО Новое' });
    const later = await postLine(owner, id, '50');
    const next = (await issue(owner, { folio_id: folio.id, line_ids: [later.id] }).expect(201)).body as Invoice;
    expect(sequenceOf(next.number)).toBe(sequenceOf(invoice.number) + 1);
    expect(next.seller.legal_name).toBe('ООО Новое');
    expect((await read(owner, invoice.id)).seller.legal_name).toBe(requisites.legal_name);
    await t.http.patch(api(owner, '/settings')).set(as(owner.accessToken)).send({ legal_name: requisites.legal_name });
  });

  it('bills a company folio to the company (its name and INN)', async () => {
    const { invoice } = await companyInvoice('ООО Командировка', '700');
    expect(invoice.payer).toEqual({ kind: 'company', name: 'ООО Командировка', inn: '7736050003' });
    expect(invoice.total).toBe('700.00');
  });

  it('gives 50 concurrent issues 50 consecutive numbers', async () => {
    const hotel = await registerHotel(t);
    await t.http.patch(api(hotel, '/settings')).set(as(hotel.accessToken)).send(requisites).expect(200);
    const bookings = await Promise.all(Array.from({ length: 5 }, () => booking(hotel)));
    const jobs: { folio: string; line: string }[] = [];
    for (const id of bookings) {
      const folio = (await guestFolio(hotel, id)).id;
      for (let i = 0; i < 10; i++) jobs.push({ folio, line: (await postLine(hotel, id, `${10 + i}`)).id });
    }
    const answers = await Promise.all(jobs.map((job) => issue(hotel, { folio_id: job.folio, line_ids: [job.line] })));
    expect(answers.map((answer) => answer.status)).toEqual(jobs.map(() => 201));
    const numbers = answers.map((answer) => sequenceOf((answer.body as Invoice).number)).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
  });
  it('invoices a line once when issues of one folio race, and refused issues leave no gap', async () => {
    const id = await booking(owner);
    await postLine(owner, id, '10');
    await postLine(owner, id, '20');
    const folio = (await guestFolio(owner, id)).id;
    const answers = await Promise.all(Array.from({ length: 5 }, () => issue(owner, { folio_id: folio })));
    const issued = answers.filter((answer) => answer.status === 201);
    expect(issued).toHaveLength(1);
    expect(answers.filter((answer) => answer.status === 422).map((answer) => answer.body.code)).toEqual(
      Array.from({ length: 4 }, () => 'invoice_nothing_to_invoice'),
    );
    expect((issued[0].body as Invoice).total).toBe('30.00');
    const next = await postLine(owner, id, '5');
    const after = (await issue(owner, { folio_id: folio, line_ids: [next.id] }).expect(201)).body as Invoice;
    expect(sequenceOf(after.number)).toBe(sequenceOf((issued[0].body as Invoice).number) + 1);
  });
});

const downloadPdf = (id: string) =>
  t.http
    .get(api(owner, `/invoices/${id}/pdf`))
    .set(as(owner.accessToken))
    .buffer(true)
    .parse((res, done) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => done(null, Buffer.concat(chunks)));
    })
    .expect(200);

describe('the PDF', () => {
  it('is kept in the object store, downloadable, and e-mailed with the invoice attached', async () => {
    const id = await booking(owner);
    await postLine(owner, id, '2500');
    const invoice = (await issue(owner, { folio_id: (await guestFolio(owner, id)).id }).expect(201)).body as Invoice;

    const downloaded = await downloadPdf(invoice.id);
    expect(downloaded.headers['content-type']).toBe('application/pdf');
    const pdf = downloaded.body as Buffer;
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const text = await pdfText(pdf);
    expect(text).toContain(`Счёт на оплату № ${invoice.number}`);
    expect(text).toContain('Платёжная Мария');
    expect(text).toContain(requisites.settlement_account);

    const row = (await t.db('invoices').where({ id: invoice.id }).first('pdf_key')) as { pdf_key: string };
    const stored = await createStorage(t.config.storage).read(row.pdf_key);
    expect(Buffer.concat(await stored!.toArray()).equals(pdf)).toBe(true);
    // Only the API serves it: no cache on the way may keep it.
    const { endpoint, bucket, accessKey, secretKey, region } = t.config.storage;
    const url = new URL(endpoint);
    const store = new Client({
      endPoint: url.hostname,
      port: Number(url.port),
      useSSL: false,
      accessKey,
      secretKey,
      region,
      pathStyle: true,
    });
    expect((await store.statObject(bucket, row.pdf_key)).metaData['cache-control']).toBe('private, no-store');

    const to = uniqueEmail('accountant');
    const asked = await t.http
      .post(api(owner, `/invoices/${invoice.id}/email`))
      .set(as(owner.accessToken))
      .send({ to })
      .expect(202);
    expect(asked.body).toMatchObject({ invoice_id: invoice.id, to });
    const [message] = await waitForMessages(to);
    expect(message.subject).toContain(invoice.number);
    expect(message.attachments).toEqual([
      expect.objectContaining({ filename: `invoice-${invoice.number}.pdf`, contentType: 'application/pdf' }),
    ]);
    expect(await pdfText(Buffer.from(message.attachments[0].content, 'base64'))).toContain(invoice.number);
  });
});

describe('credit notes', () => {
  it('cancel an invoice (own series), after which its lines are invoiceable again', async () => {
    const id = await booking(owner);
    const line = await postLine(owner, id, '400');
    const folio = (await guestFolio(owner, id)).id;
    const invoice = (await issue(owner, { folio_id: folio }).expect(201)).body as Invoice;
    const receptionist = await addStaff(t, owner, 'receptionist');
    await t.http
      .post(api(owner, `/invoices/${invoice.id}/cancel`))
      .set(as(receptionist.accessToken))
      .send({ reason: 'Ошибка' })
      .expect(403);

    const cancel = () =>
      t.http
        .post(api(owner, `/invoices/${invoice.id}/cancel`))
        .set(as(owner.accessToken))
        .send({ reason: 'Ошибка' });
    const note = (await cancel().expect(201)).body as { number: string; invoice_id: string; total: string };
    expect(note).toMatchObject({ invoice_id: invoice.id, total: '400.00' });
    expect(note.number).toMatch(new RegExp(`^CN-${year()}-\\d{6}$`));
    expect(await read(owner, invoice.id)).toMatchObject({ status: 'cancelled', credit_note: note });
    expect((await cancel().expect(409)).body.code).toBe('invoice_cancelled');
    await t.http
      .post(api(owner, `/invoices/${invoice.id}/email`))
      .set(as(owner.accessToken))
      .send({ to: uniqueEmail('late') })
      .expect(409);
    await t.http
      .post(api(owner, `/invoices/${invoice.id}/payments`))
      .set(as(owner.accessToken))
      .send({ amount: '1' })
      .expect(409);

    const again = (await issue(owner, { folio_id: folio, line_ids: [line.id] }).expect(201)).body as Invoice;
    expect(again.total).toBe('400.00');
    const second = await t.http
      .post(api(owner, `/invoices/${again.id}/cancel`))
      .set(as(owner.accessToken))
      .send({ reason: 'Снова' })
      .expect(201);
    expect(sequenceOf(second.body.number as string)).toBe(sequenceOf(note.number) + 1);
  });
});

describe('payments', () => {
  it('post to the folio once each, partial ones add up, overpayment is refused', async () => {
    const id = await booking(owner);
    await postLine(owner, id, '1000');
    const folio = (await guestFolio(owner, id)).id;
    const invoice = (await issue(owner, { folio_id: folio }).expect(201)).body as Invoice;
    const pay = (amount: string) =>
      t.http
        .post(api(owner, `/invoices/${invoice.id}/payments`))
        .set(as(owner.accessToken))
        .send({ amount });

    const first = await pay('400').expect(201);
    expect(first.body.invoice).toMatchObject({ paid_amount: '400.00', payment_status: 'partially_paid' });
    const refused = await pay('600.01').expect(422);
    expect(refused.body).toEqual(
      problem(422, 'invoice_overpaid', 'Оплата больше остатка по счёту (600.00 ₽)', { errors: [expect.any(String)] }),
    );
    await pay('600').expect(201);
    expect(await read(owner, invoice.id)).toMatchObject({ paid_amount: '1000.00', payment_status: 'paid' });
    await pay('0.01').expect(422);

    const guest = await guestFolio(owner, id);
    const payments = guest.lines.filter((line) => line.kind === 'payment');
    expect(payments.map((line) => [line.amount, line.source])).toEqual([
      ['-400.00', `payment:${first.body.payment.booking_payment_id}`],
      ['-600.00', expect.stringMatching(/^payment:/)],
    ]);
    expect(guest.balance).toBe('0.00');
    // A paid invoice is not cancelled: its money stays on the folio.
    await t.http
      .post(api(owner, `/invoices/${invoice.id}/cancel`))
      .set(as(owner.accessToken))
      .send({ reason: 'Поздно' })
      .expect(409);
  });
});

const payInvoice = (hotel: RegisteredHotel, id: string, body: object) =>
  t.http
    .post(api(hotel, `/invoices/${id}/payments`))
    .set(as(hotel.accessToken))
    .send(body);

describe('what is not billed', () => {
  it('a deleted desk payment (a correction of the payment line) is no charge', async () => {
    const id = await booking(owner);
    await postLine(owner, id, '1000');
    const paid = await t.http
      .post(api(owner, `/bookings/${id}/payments`))
      .set(as(owner.accessToken))
      .send({ amount: '300.00', method: 'cash' })
      .expect(201);
    await t.http
      .delete(api(owner, `/bookings/${id}/payments/${paid.body.payment.id}`))
      .set(as(owner.accessToken))
      .expect(200);
    const folio = await guestFolio(owner, id);
    const removed = folio.lines.find((line) => line.kind === 'correction')!;
    expect(removed.amount).toBe('300.00');
    const refused = await issue(owner, { folio_id: folio.id, line_ids: [removed.id] }).expect(422);
    expect(refused.body.code).toBe('invoice_line_not_invoiceable');
    const invoice = (await issue(owner, { folio_id: folio.id }).expect(201)).body as Invoice;
    expect(invoice.total).toBe('1000.00');
    expect(invoice.lines.map((line) => line.folio_line_id)).not.toContain(removed.id);
  });

  it('a correction of an invoiced line waits for the credit note, not the next invoice', async () => {
    const id = await booking(owner);
    const line = await postLine(owner, id, '1000');
    const folio = (await guestFolio(owner, id)).id;
    const first = (await issue(owner, { folio_id: folio }).expect(201)).body as Invoice;
    const correction = await postLine(owner, id, '-200', { kind: 'correction', corrects_line_id: line.id });
    const later = await postLine(owner, id, '50');
    const second = (await issue(owner, { folio_id: folio }).expect(201)).body as Invoice;
    expect(second.lines.map((l) => l.folio_line_id)).toEqual([later.id]);
    expect(second.total).toBe('50.00');
    await t.http
      .post(api(owner, `/invoices/${first.id}/cancel`))
      .set(as(owner.accessToken))
      .send({ reason: 'Скидка' })
      .expect(201);
    const reissued = (await issue(owner, { folio_id: folio }).expect(201)).body as Invoice;
    expect(reissued.lines.map((l) => l.folio_line_id).sort()).toEqual([line.id, correction.id].sort());
    expect(reissued.total).toBe('800.00');
  });

  it('takes at most 500 lines without line_ids (422 beyond)', async () => {
    const id = await booking(owner);
    const line = await postLine(owner, id, '1');
    const row = (await t.db('folio_lines').where({ id: line.id }).first()) as Record<string, unknown>;
    const { id: _id, ...rest } = row;
    await t
      .db('folio_lines')
      .insert(Array.from({ length: 500 }, (_, i) => ({ ...rest, source: `${String(row.source)}:${i}` })));
    const refused = await issue(owner, { folio_id: String(row.folio_id) }).expect(422);
    expect(refused.body.code).toBe('invoice_too_many_lines');
  });
});

describe('invoiced lines stay on their folio', () => {
  it('a line on a live invoice is not moved (409) until a credit note cancels it', async () => {
    const id = await booking(owner);
    const line = await postLine(owner, id, '700');
    const invoice = (await issue(owner, { folio_id: (await guestFolio(owner, id)).id }).expect(201)).body as Invoice;
    const company = await t.http
      .post(`${folioPath(owner, id)}/companies`)
      .set(as(owner.accessToken))
      .send({ payer_name: 'ООО Перенос', payer_inn: '7707083893' })
      .expect(201);
    const move = () =>
      t.http
        .post(`${folioPath(owner, id)}/lines/${line.id}/move`)
        .set(as(owner.accessToken))
        .send({ folio_id: company.body.id });
    const refused = await move().expect(409);
    expect(refused.body).toMatchObject({
      code: 'invoice_line_on_invoice',
      error: expect.stringContaining('кредит-нот'),
    });
    expect((await guestFolio(owner, id)).lines.map((l) => l.id)).toContain(line.id);
    await t.http
      .post(api(owner, `/invoices/${invoice.id}/cancel`))
      .set(as(owner.accessToken))
      .send({ reason: 'Другой плательщик' })
      .expect(201);
    await move().expect(201);
  });

  it('a company’s INN with wrong check digits makes no folio (400)', async () => {
    const id = await booking(owner);
    await t.http
      .post(`${folioPath(owner, id)}/companies`)
      .set(as(owner.accessToken))
      .send({ payer_name: 'ООО Опечатка', payer_inn: '7707083894' })
      .expect(400);
  });
});

describe('payments into the booking’s ledger', () => {
  it('a bank transfer is a row of the booking’s payments, its paid amount, and a line of the invoice’s folio', async () => {
    const { id, folio, invoice } = await companyInvoice('ООО Плательщик', '900');
    const paid = await payInvoice(owner, invoice.id, { amount: '900', method: 'bank_transfer' }).expect(201);
    const ledger = await t.http
      .get(api(owner, `/bookings/${id}/payments`))
      .set(as(owner.accessToken))
      .expect(200);
    expect(ledger.body).toEqual([
      expect.objectContaining({ id: paid.body.payment.booking_payment_id, amount: '900.00', method: 'transfer' }),
    ]);
    const stay = await t.http
      .get(api(owner, `/bookings/${id}`))
      .set(as(owner.accessToken))
      .expect(200);
    expect(stay.body.paid_amount).toBe('900.00');
    const view = await t.http.get(folioPath(owner, id)).set(as(owner.accessToken)).expect(200);
    const folios = view.body.folios as { id: string; balance: string; lines: Line[] }[];
    const theirs = folios.find((one) => one.id === folio)!;
    expect(theirs.balance).toBe('0.00');
    expect(theirs.lines.find((line) => line.kind === 'payment')).toMatchObject({
      id: paid.body.payment.folio_line_id,
      source: `payment:${paid.body.payment.booking_payment_id}`,
      amount: '-900.00',
    });
    expect(folios.flatMap((folio) => folio.lines).filter((line) => line.kind === 'payment')).toHaveLength(1);
    // The desk does not delete it from under the invoice.
    const kept = await t.http
      .delete(api(owner, `/bookings/${id}/payments/${paid.body.payment.booking_payment_id}`))
      .set(as(owner.accessToken))
      .expect(409);
    expect(kept.body.code).toBe('invoice_payment_of_invoice');
    expect((await read(owner, invoice.id)).paid_amount).toBe('900.00');
  });

  it('cash and cards are the desk’s (422), nothing recorded', async () => {
    const id = await booking(owner);
    await postLine(owner, id, '100');
    const invoice = (await issue(owner, { folio_id: (await guestFolio(owner, id)).id }).expect(201)).body as Invoice;
    for (const method of ['cash', 'card']) {
      const refused = await payInvoice(owner, invoice.id, { amount: '100', method }).expect(422);
      expect(refused.body.code).toBe('invoice_payment_at_desk');
    }
    expect(await read(owner, invoice.id)).toMatchObject({ paid_amount: '0.00', payments: [] });
    const ledger = await t.http
      .get(api(owner, `/bookings/${id}/payments`))
      .set(as(owner.accessToken))
      .expect(200);
    expect(ledger.body).toEqual([]);
  });
});

describe('e-mails asked', () => {
  it('a retry with the same Idempotency-Key sends once; 20 per invoice at most', async () => {
    const id = await booking(owner);
    await postLine(owner, id, '100');
    const invoice = (await issue(owner, { folio_id: (await guestFolio(owner, id)).id }).expect(201)).body as Invoice;
    const to = uniqueEmail('retry');
    const ask = (key: string) =>
      t.http
        .post(api(owner, `/invoices/${invoice.id}/email`))
        .set(as(owner.accessToken))
        .set('Idempotency-Key', key)
        .send({ to });
    const first = await ask('mail-once').expect(202);
    const again = await ask('mail-once').expect(202);
    expect(again.body.id).toBe(first.body.id);
    await waitForMessages(to);
    expect((await read(owner, invoice.id)).emails).toHaveLength(1);

    await t
      .db('invoice_emails')
      .insert(Array.from({ length: 19 }, () => ({ hotel_id: owner.hotelId, invoice_id: invoice.id, to })));
    const refused = await ask('mail-21').expect(422);
    expect(refused.body.code).toBe('invoice_email_limit');
  });
});

describe('a cancelled invoice’s PDF', () => {
  it('is marked АННУЛИРОВАН', async () => {
    const id = await booking(owner);
    await postLine(owner, id, '100');
    const invoice = (await issue(owner, { folio_id: (await guestFolio(owner, id)).id }).expect(201)).body as Invoice;
    const download = async () => pdfText((await downloadPdf(invoice.id)).body as Buffer);
    expect(await download()).not.toContain('АННУЛИРОВАН');
    await t.http
      .post(api(owner, `/invoices/${invoice.id}/cancel`))
      .set(as(owner.accessToken))
      .send({ reason: 'Ошибка' })
      .expect(201);
    expect(await download()).toContain('АННУЛИРОВАН');
  });
});

describe('another hotel', () => {
  it('gets nothing of this hotel’s invoices and cannot invoice its folios', async () => {
    const id = await booking(owner);
    const line = await postLine(owner, id, '300');
    const folio = (await guestFolio(owner, id)).id;
    const invoice = (await issue(owner, { folio_id: folio }).expect(201)).body as Invoice;
    const theirs = (path: string) => api(other, path);
    await t.http
      .get(theirs(`/invoices/${invoice.id}`))
      .set(as(other.accessToken))
      .expect(404);
    await t.http
      .get(theirs(`/invoices/${invoice.id}/pdf`))
      .set(as(other.accessToken))
      .expect(404);
    await t.http
      .post(theirs(`/invoices/${invoice.id}/payments`))
      .set(as(other.accessToken))
      .send({ amount: '1' })
      .expect(404);
    await t.http
      .post(theirs(`/invoices/${invoice.id}/cancel`))
      .set(as(other.accessToken))
      .send({ reason: 'x' })
      .expect(404);
    await t.http
      .post(theirs(`/invoices/${invoice.id}/email`))
      .set(as(other.accessToken))
      .send({ to: 'x@example.test' })
      .expect(404);
    await issue(other, { folio_id: folio }).expect(400);
    const list = await t.http.get(theirs('/invoices')).set(as(other.accessToken)).expect(200);
    expect(list.body).toEqual([]);
    await t.http
      .get(api(owner, `/invoices/${invoice.id}`))
      .set(as(other.accessToken))
      .expect(403);
    expect((await read(owner, invoice.id)).lines.map((l) => l.folio_line_id)).toEqual([line.id]);
  });
});
