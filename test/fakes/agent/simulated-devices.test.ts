import type { CommandReply } from './index';
import { card, errorCode, result, useProtocolServer, withHttpServer, type HttpExchange } from './test-support';

const { onlineAgent } = useProtocolServer();

function sellTask(amounts: number[], paid: number, type = 'sell') {
  return {
    device: { id: 'fr-1', type: 'fiscal_register' },
    task: {
      type,
      taxationType: 'osn',
      operator: { name: 'Reception' },
      items: amounts.map((amount, index) => ({
        type: 'position',
        name: `Night ${index + 1}`,
        price: amount,
        quantity: 1,
        amount,
        tax: { type: 'vat20' },
        paymentMethod: 'fullPayment',
        paymentObject: 'service',
      })),
      payments: [{ type: 'electronically', sum: paid }],
      total: amounts.reduce((sum, amount) => sum + amount, 0),
    },
  };
}

/** The one-item sell task with `change` made to its item, its task or its payment. */
function changedTask(change: { item?: Record<string, unknown>; task?: Record<string, unknown>; payment?: object }) {
  const base = sellTask([1500], 1500);
  return {
    ...base,
    task: {
      ...base.task,
      ...change.task,
      items: [{ ...base.task.items[0], ...change.item }],
      payments: [{ ...base.task.payments[0], ...change.payment }],
    },
  };
}

describe('desk devices', () => {
  it('pings, times out on unreachable hosts, lists ports and printers, tests devices', async () => {
    const { agent, connection } = await onlineAgent({ unreachableHosts: ['10.0.0.99'] });

    expect(result(await connection.command('ping', { host: '10.0.0.5' }))).toEqual({
      host: '10.0.0.5',
      sent: 4,
      received: 4,
      replies: [1, 2, 3, 4].map((seq) => ({ seq, time_ms: expect.any(Number) })),
    });
    expect(result(await connection.command('ping', { host: '10.0.0.99' }))).toEqual(
      expect.objectContaining({ received: 0, replies: [1, 2, 3, 4].map((seq) => ({ seq, error: 'timeout' })) }),
    );
    agent.setUnreachable('10.0.0.99', false);
    expect(result(await connection.command('ping', { host: '10.0.0.99' }))).toEqual(
      expect.objectContaining({ received: 4 }),
    );
    expect(result(await connection.command('list_ports'))).toEqual({
      ports: [expect.objectContaining({ name: 'COM1' }), expect.objectContaining({ name: 'COM3' })],
    });
    expect(result(await connection.command('list_printers'))).toEqual({
      printers: expect.arrayContaining([expect.objectContaining({ is_default: true })]),
    });

    const printer = { id: 'd1', type: 'printer', connection: 'com', com_port: 'COM1', fiscal_mode: null, config: {} };
    expect(result(await connection.command('test_device', { device: printer }))).toEqual(
      expect.objectContaining({ message: expect.any(String) }),
    );
    const missing = { ...printer, com_port: 'COM9' };
    expect(errorCode(await connection.command('test_device', { device: missing }))).toBe('device_not_found');
    expect(errorCode(await connection.command('format_disk'))).toBe('unsupported_command');
  });

  it('performs http_request for real', async () => {
    const answer = ({ method, body }: HttpExchange) => ({
      status: 202,
      headers: { 'x-tv': 'yes' },
      body: `${method} ${body}`,
    });
    await withHttpServer(answer, async (baseUrl) => {
      const { connection } = await onlineAgent();
      const push = { method: 'POST', url: `${baseUrl}/push`, headers: {}, body: 'room=101' };

      expect(result(await connection.command('http_request', push))).toEqual({
        status: 202,
        headers: expect.objectContaining({ 'x-tv': 'yes' }),
        body: 'POST room=101',
      });
      const unreachable = { method: 'GET', url: 'http://127.0.0.1:1/', headers: {} };
      expect(errorCode(await connection.command('http_request', unreachable))).toBe('http_failed');
    });
  });
});

describe('card encoder', () => {
  it('reports the DLL and whether the encoder is on the port', async () => {
    const { connection } = await onlineAgent();

    expect(result(await connection.command('dll_info', { com_port: 'COM3' }))).toEqual({
      dll_version: 'CardEncoder 1.6.1',
      encoder_connected: true,
    });
    expect(result(await connection.command('dll_info', { com_port: 'COM1' }))).toEqual(
      expect.objectContaining({ encoder_connected: false }),
    );
    expect(errorCode(await connection.command('dll_info', { com_port: 'COM8' }))).toBe('encoder_not_found');
  });

  it.each([
    ['a sector below 1', { sectors: [0, 1] }],
    ['a sector above 16', { sectors: [17] }],
    ['a fractional sector', { sectors: [1.5] }],
    ['no sectors', { sectors: [] }],
    ['no lock', { lock_macs: [] }],
    ['valid_until before valid_from', { valid_until: '2026-11-24T13:00:00Z' }],
    ['valid_until equal to valid_from', { valid_until: card.valid_from }],
    ['no floor', { floor_no: undefined }],
    ['a lock MAC of another form', { lock_macs: ['AABBCCDDEE01'] }],
    ['a lock MAC that is not hex', { lock_macs: ['GG:BB:CC:DD:EE:01'] }],
    ['a lock MAC too short', { lock_macs: ['AA:BB:CC:DD:EE'] }],
    ['a lock named twice', { lock_macs: ['AA:BB:CC:DD:EE:01', 'aa:bb:cc:dd:ee:01'] }],
    ['a lock that is not a string', { lock_macs: [42] }],
    ['a building above one byte', { build_no: 256 }],
    ['a negative floor', { floor_no: -1 }],
    ['a port that is not a COM port', { com_port: '/dev/ttyS0' }],
  ])('refuses to write a card with %s', async (_, change) => {
    const { agent, connection } = await onlineAgent();

    expect(errorCode(await connection.command('write_card', { ...card, ...change }))).toBe('invalid_payload');
    expect(agent.cards).toHaveLength(0);
  });

  it('writes a card only with a card on the encoder of that port, and cancels it', async () => {
    const { agent, connection } = await onlineAgent();

    expect(errorCode(await connection.command('write_card', { ...card, com_port: 'COM1' }))).toBe('encoder_not_found');
    agent.setCardPresent(false);
    expect(errorCode(await connection.command('write_card', card))).toBe('no_card');
    agent.setCardPresent(true);

    const written = result(await connection.command('write_card', card)) as { card_number: string };
    expect(written.card_number).toMatch(/^[0-9A-F]{8}$/);
    expect(agent.cards).toEqual([expect.objectContaining({ card_number: written.card_number, payload: card })]);
    const next = result(await connection.command('write_card', card)) as { card_number: string };
    expect(next.card_number).not.toBe(written.card_number);

    const cancel = { com_port: 'COM3', hotel_info: 'hotel-info-blob' };
    expect(result(await connection.command('cancel_card', cancel))).toEqual({ card_number: next.card_number });
    expect(agent.cancelledCards).toEqual([expect.objectContaining({ card_number: next.card_number })]);
    expect(errorCode(await connection.command('cancel_card', cancel))).toBe('no_card');

    agent.placeCard(written.card_number);
    expect(result(await connection.command('cancel_card', cancel))).toEqual({ card_number: written.card_number });
  });
});

describe('fiscal register', () => {
  const fiscalOf = (reply: CommandReply) => (result(reply) as { fiscal: Record<string, unknown> }).fiscal;

  it('opens the shift for a sell when it is closed and numbers receipts within the shift', async () => {
    const { agent, connection } = await onlineAgent();

    const first = fiscalOf(await connection.command('fiscal_receipt', sellTask([2500, 1000.5], 3500.5)));
    expect(first).toEqual({
      fiscal_document_number: 2,
      fiscal_document_sign: expect.stringMatching(/^\d{10}$/),
      fn_number: expect.stringMatching(/^\d{16}$/),
      shift_number: 1,
      receipt_number: 1,
      datetime: expect.any(String),
      total: 3500.5,
    });
    expect(new Date(first.datetime as string).toISOString()).toBe(first.datetime);
    const refund = fiscalOf(await connection.command('fiscal_receipt', sellTask([1000.5], 1000.5, 'sellReturn')));
    expect(refund).toEqual(expect.objectContaining({ shift_number: 1, receipt_number: 2, total: 1000.5 }));
    expect(agent.receipts.map((receipt) => receipt.type)).toEqual(['sell', 'sellReturn']);

    const closeShift = { device: {}, task: { type: 'closeShift' } };
    expect(fiscalOf(await connection.command('fiscal_receipt', closeShift))).toEqual(
      expect.objectContaining({ shift_number: 1, receipt_number: null }),
    );
    expect(agent.fiscalRegister.shift.open).toBe(false);
    expect(errorCode(await connection.command('fiscal_receipt', closeShift))).toBe('fiscal_refused');

    const openShift = { device: {}, task: { type: 'openShift' } };
    expect(fiscalOf(await connection.command('fiscal_receipt', openShift))).toEqual(
      expect.objectContaining({ shift_number: 2 }),
    );
    expect(errorCode(await connection.command('fiscal_receipt', openShift))).toBe('fiscal_refused');
    const second = fiscalOf(await connection.command('fiscal_receipt', sellTask([100], 100)));
    expect(second).toEqual(expect.objectContaining({ shift_number: 2, receipt_number: 1 }));
  });

  it('refuses a receipt whose payments do not add up to its items', async () => {
    const { agent, connection } = await onlineAgent();

    const reply = await connection.command('fiscal_receipt', sellTask([2500, 1000], 3000));
    expect(reply).toEqual(
      expect.objectContaining({ ok: false, error: { code: 'fiscal_refused', message: expect.stringMatching(/3000/) } }),
    );
    expect(agent.receipts).toHaveLength(0);
  });

  it.each([
    [
      'an amount that is not price × quantity',
      { item: { price: 1500, quantity: 2, amount: 1500 } },
      /цене × количество/,
    ],
    ['a price with a fraction of a kopeck', { item: { price: 1500.005, amount: 1500.005 } }, /двух знаков/],
    ['a quantity of zero', { item: { quantity: 0, amount: 0 } }, /количество/],
    ['an unknown tax rate', { item: { tax: { type: 'vat18' } } }, /НДС/],
    ['no tax rate', { item: { tax: undefined } }, /НДС/],
    ['an unknown settlement method', { item: { paymentMethod: 'full_payment' } }, /способа расчёта/],
    ['a calculated VAT rate on a full payment', { item: { tax: { type: 'vat120' } } }, /расчётная ставка только/],
    [
      'a VAT rate that is not the calculated one on a prepayment',
      { item: { paymentMethod: 'prepayment' } },
      /нужна расчётная/,
    ],
    ['an unknown settlement object', { item: { paymentObject: 'room' } }, /предмета расчёта/],
    ['an empty name', { item: { name: '' } }, /наименование/],
    ['an unknown payment type', { payment: { type: 'card' } }, /тип оплаты/],
    ['a total that is not the sum of the positions', { task: { total: 1400 } }, /Итог чека/],
    ['an unknown taxation system', { task: { taxationType: 'usn' } }, /налогообложения/],
  ])('refuses a receipt with %s, as the driver does', async (_name, change, words) => {
    const { agent, connection } = await onlineAgent();

    const reply = await connection.command('fiscal_receipt', changedTask(change));
    expect(reply).toEqual(
      expect.objectContaining({ ok: false, error: { code: 'fiscal_refused', message: expect.stringMatching(words) } }),
    );
    expect(agent.receipts).toHaveLength(0);
  });

  it('prints a position of a fractional quantity whose amount is rounded to the kopeck', async () => {
    const { agent, connection } = await onlineAgent();

    const task = changedTask({ item: { price: 99.99, quantity: 1.5, amount: 149.99 }, payment: { sum: 149.99 } });
    const reply = await connection.command('fiscal_receipt', { ...task, task: { ...task.task, total: 149.99 } });
    expect(errorCode(reply)).toBeUndefined();
    expect(agent.receipts).toHaveLength(1);
  });

  it('refuses everything with the register words while refusing, and shift_expired after 24 hours', async () => {
    const { agent, connection } = await onlineAgent();
    agent.setFiscalRefusal('Нет бумаги');

    expect(await connection.command('fiscal_receipt', sellTask([100], 100))).toEqual(
      expect.objectContaining({ ok: false, error: { code: 'fiscal_refused', message: 'Нет бумаги' } }),
    );
    agent.setFiscalRefusal(undefined);
    expect(errorCode(await connection.command('fiscal_receipt', sellTask([100], 100)))).toBeUndefined();

    agent.fiscalRegister.ageShift(25 * 60 * 60 * 1000);
    expect(errorCode(await connection.command('fiscal_receipt', sellTask([100], 100)))).toBe('shift_expired');
  });
});
