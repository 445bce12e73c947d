import {
  AtolTaskError,
  closeShiftTask,
  openShiftTask,
  parseFiscalResult,
  sellReturnTask,
  sellTask,
  taxTypeOf,
  type ReceiptInput,
  type ReceiptLine,
} from '../../src/integrations/atol';

const line = (changes: Partial<ReceiptLine> = {}): ReceiptLine => ({
  name: 'Проживание, номер 101',
  unitPrice: '1500.00',
  quantity: 1,
  vat: '20',
  method: 'full_payment',
  object: 'service',
  ...changes,
});

const receipt = (changes: Partial<ReceiptInput> = {}): ReceiptInput => ({
  operator: { name: 'Иванова А.', vatin: '500100732259' },
  taxation: 'osn',
  lines: [line()],
  payments: [{ kind: 'card', amount: '1500.00' }],
  ...changes,
});

function refusal(build: () => unknown): AtolTaskError {
  try {
    build();
  } catch (error) {
    if (error instanceof AtolTaskError) return error;
    throw error;
  }
  throw new Error('expected an AtolTaskError');
}

describe('sellTask', () => {
  it('builds the driver task of a sale', () => {
    expect(sellTask(receipt())).toEqual({
      type: 'sell',
      taxationType: 'osn',
      operator: { name: 'Иванова А.', vatin: '500100732259' },
      electronically: false,
      items: [
        {
          type: 'position',
          name: 'Проживание, номер 101',
          price: 1500,
          quantity: 1,
          amount: 1500,
          tax: { type: 'vat20' },
          paymentMethod: 'fullPayment',
          paymentObject: 'service',
        },
      ],
      payments: [{ type: 'electronically', sum: 1500 }],
      total: 1500,
    });
  });

  it('works in kopecks: no floating error in amounts or the total', () => {
    const task = sellTask(
      receipt({
        lines: [line({ unitPrice: '0.10', quantity: 3 }), line({ unitPrice: '0.20', quantity: 1 })],
        payments: [{ kind: 'cash', amount: '0.50' }],
      }),
    );
    expect(task.items.map((item) => item.amount)).toEqual([0.3, 0.2]);
    expect(task.total).toBe(0.5);
    expect(JSON.stringify(task.payments)).toBe('[{"type":"cash","sum":0.5}]');
  });

  it.each([
    ['0.15', 0.5, 0.08],
    ['0.15', 0.25, 0.04],
    ['1499.99', 3, 4499.97],
    ['33.33', 0.333, 11.1],
    ['9999999.99', 2, 19999999.98],
  ])('amount of %s × %p is %p (half a kopeck up)', (unitPrice, quantity, amount) => {
    const task = sellTask(
      receipt({ lines: [line({ unitPrice, quantity })], payments: [{ kind: 'cash', amount: String(amount) }] }),
    );
    expect(task.items[0]).toMatchObject({ quantity, amount });
    expect(task.total).toBe(amount);
  });

  it('splits payment by cash, card and an advance set off, summing to the lines', () => {
    const task = sellTask(
      receipt({
        lines: [line({ unitPrice: '2500', quantity: 2 }), line({ name: 'Завтрак', unitPrice: '450.50', vat: '10' })],
        payments: [
          { kind: 'prepaid', amount: '3000' },
          { kind: 'cash', amount: '950.5' },
          { kind: 'card', amount: '1500.00' },
        ],
      }),
    );
    expect(task.total).toBe(5450.5);
    expect(task.payments).toEqual([
      { type: 'prepaid', sum: 3000 },
      { type: 'cash', sum: 950.5 },
      { type: 'electronically', sum: 1500 },
    ]);
  });

  it('refuses payments that do not add up to the lines, naming both sums', () => {
    const error = refusal(() => sellTask(receipt({ payments: [{ kind: 'cash', amount: '1499.99' }] })));
    expect(error.message).toBe('Сумма оплат (1499.99 ₽) не равна сумме позиций чека (1500.00 ₽)');
    expect(error.path).toBe('payments');
  });

  it.each([
    [{ unitPrice: '12.345' }, 'lines[0].unitPrice'],
    [{ unitPrice: '-1' }, 'lines[0].unitPrice'],
    [{ unitPrice: 1500 as unknown as string }, 'lines[0].unitPrice'],
    [{ unitPrice: '0' }, 'lines[0].unitPrice'],
    [{ quantity: 0 }, 'lines[0].quantity'],
    [{ quantity: 1.0001 }, 'lines[0].quantity'],
    [{ quantity: Number.NaN }, 'lines[0].quantity'],
    [{ quantity: 1e9 }, 'lines[0].quantity'],
    [{ name: '   ' }, 'lines[0].name'],
    [{ vat: '18' as ReceiptLine['vat'] }, 'lines[0].vat'],
    [{ method: 'fullPayment' as ReceiptLine['method'] }, 'lines[0].method'],
    [{ object: 'room' as ReceiptLine['object'] }, 'lines[0].object'],
  ])('refuses the line %j at %s', (changes, path) => {
    expect(refusal(() => sellTask(receipt({ lines: [line(changes)] }))).path).toBe(path);
  });

  it('cuts names to the driver’s 128 characters without splitting a character', () => {
    const long = `${'Номер люкс '.repeat(20)}🛏️ конец`;
    const [item] = sellTask(receipt({ lines: [line({ name: `  ${long}  ` })] })).items;
    expect(Array.from(item.name).length).toBeLessThanOrEqual(128);
    expect(long.startsWith(item.name)).toBe(true);
    const emoji = '🛏'.repeat(130);
    expect(Array.from(sellTask(receipt({ lines: [line({ name: emoji })] })).items[0].name)).toHaveLength(128);
  });

  it('takes at most 100 lines and at least one line and one payment', () => {
    const lines = (count: number) => Array.from({ length: count }, () => line({ unitPrice: '1' }));
    expect(sellTask(receipt({ lines: lines(100), payments: [{ kind: 'cash', amount: '100' }] })).items).toHaveLength(
      100,
    );
    expect(
      refusal(() => sellTask(receipt({ lines: lines(101), payments: [{ kind: 'cash', amount: '101' }] }))).path,
    ).toBe('lines');
    expect(refusal(() => sellTask(receipt({ lines: [] }))).path).toBe('lines');
    expect(refusal(() => sellTask(receipt({ payments: [] }))).path).toBe('payments');
    expect(refusal(() => sellTask(receipt({ payments: [{ kind: 'bitcoin' as 'cash', amount: '1500' }] }))).path).toBe(
      'payments[0].kind',
    );
  });

  it('refuses amounts beyond a money column', () => {
    expect(
      refusal(() => sellTask(receipt({ lines: [line({ unitPrice: '9999999999.99', quantity: 2 })], payments: [] })))
        .path,
    ).toBe('lines[0].unitPrice');
  });

  it('sends the receipt to the customer’s contact, and prints it unless told not to', () => {
    const byMail = sellTask(receipt({ customer: { email: ' guest@example.test ', phone: '+79001234567' } }));
    expect(byMail).toMatchObject({ electronically: false, clientInfo: { emailOrPhone: 'guest@example.test' } });
    const paperless = sellTask(receipt({ customer: { phone: '8 (900) 123-45-67' }, print: false }));
    expect(paperless).toMatchObject({ electronically: true, clientInfo: { emailOrPhone: '+79001234567' } });
    const nobody = sellTask(receipt({ print: false }));
    expect(nobody.electronically).toBe(false);
    expect(nobody).not.toHaveProperty('clientInfo');
    expect(refusal(() => sellTask(receipt({ customer: { email: 'not-an-address' } }))).path).toBe('customer.email');
    expect(refusal(() => sellTask(receipt({ customer: { phone: '12-34' } }))).path).toBe('customer.phone');
  });

  it('checks the cashier and maps the taxation system', () => {
    expect(sellTask(receipt({ operator: { name: 'Кассир' }, taxation: 'usn_income_outcome' }))).toMatchObject({
      operator: { name: 'Кассир' },
      taxationType: 'usnIncomeOutcome',
    });
    expect(refusal(() => sellTask(receipt({ operator: { name: 'Кассир', vatin: '1234' } }))).path).toBe(
      'operator.vatin',
    );
    expect(refusal(() => sellTask(receipt({ operator: { name: '' } }))).path).toBe('operator.name');
    expect(refusal(() => sellTask(receipt({ taxation: 'envd' as 'osn' }))).path).toBe('taxation');
  });
});

describe('VAT', () => {
  it.each([
    ['none', 'full_payment', 'none'],
    ['0', 'full_prepayment', 'vat0'],
    ['5', 'full_payment', 'vat5'],
    ['5', 'advance', 'vat105'],
    ['7', 'prepayment', 'vat107'],
    ['10', 'full_payment', 'vat10'],
    ['10', 'full_prepayment', 'vat110'],
    ['20', 'full_payment', 'vat20'],
    ['20', 'full_prepayment', 'vat120'],
    ['22', 'credit', 'vat22'],
    ['22', 'advance', 'vat122'],
  ] as const)('rate %s paid by %s is %s', (vat, method, tax) => {
    expect(taxTypeOf(vat, method)).toBe(tax);
  });

  it('a prepayment line carries the calculated rate in the task', () => {
    const [item] = sellTask(receipt({ lines: [line({ method: 'full_prepayment' })] })).items;
    expect(item).toMatchObject({ tax: { type: 'vat120' }, paymentMethod: 'fullPrepayment' });
  });
});

describe('sellReturnTask', () => {
  it('describes the money given back as the sale it reverses', () => {
    const task = sellReturnTask(
      receipt({
        lines: [line({ name: 'Залог', unitPrice: '500', vat: 'none', method: 'full_prepayment', object: 'payment' })],
        payments: [{ kind: 'cash', amount: '500' }],
      }),
    );
    expect(task).toMatchObject({
      type: 'sellReturn',
      items: [{ name: 'Залог', amount: 500, tax: { type: 'none' }, paymentObject: 'payment' }],
      payments: [{ type: 'cash', sum: 500 }],
      total: 500,
    });
  });

  it('refuses a return whose payments do not match', () => {
    expect(refusal(() => sellReturnTask(receipt({ payments: [{ kind: 'cash', amount: '1' }] }))).path).toBe('payments');
  });
});

describe('shift tasks', () => {
  it('opens and closes a shift for the cashier', () => {
    expect(openShiftTask({ name: ' Иванова А. ', vatin: '500100732259' })).toEqual({
      type: 'openShift',
      operator: { name: 'Иванова А.', vatin: '500100732259' },
    });
    expect(closeShiftTask({ name: 'Иванова А.' })).toEqual({ type: 'closeShift', operator: { name: 'Иванова А.' } });
    expect(refusal(() => openShiftTask({ name: ' ' })).path).toBe('operator.name');
  });
});

describe('parseFiscalResult', () => {
  const expected = {
    fiscal_document_number: 1234,
    fiscal_document_sign: '0123456789',
    fn_number: '9999078900012345',
    shift_number: 12,
    receipt_number: 7,
    datetime: '2026-11-24T07:30:00.000Z',
    total: '1500.50',
  };

  it('reads the agent’s answer (snake_case under `fiscal`) and normalises it', () => {
    const answer = { fiscal: { ...expected, datetime: '2026-11-24T10:30:00+03:00', total: 1500.5, extra: 'kept out' } };
    expect(parseFiscalResult(answer)).toEqual(expected);
    expect(parseFiscalResult({ ...expected, total: '1500.5' })).toEqual(expected);
  });

  it('reads the driver’s own fiscalParams', () => {
    const answer = {
      fiscalParams: {
        fiscalDocumentNumber: 1234,
        fiscalDocumentSign: '0123456789',
        fnNumber: '9999078900012345',
        shiftNumber: 12,
        fiscalReceiptNumber: 7,
        fiscalDocumentDateTime: '2026-11-24T10:30:00+03:00',
        total: 1500.5,
        fnsUrl: 'www.nalog.gov.ru',
        registrationNumber: '0000000001002292',
      },
      warnings: null,
    };
    expect(parseFiscalResult(answer)).toEqual(expected);
  });

  it.each([
    [{}],
    [null],
    [{ fiscal: { ...expected, fiscal_document_number: -1 } }],
    [{ fiscal: { ...expected, fn_number: 'FN-1' } }],
    [{ fiscal: { ...expected, datetime: 'yesterday' } }],
    [{ fiscal: { ...expected, total: '15.005' } }],
    [{ fiscalParams: { fiscalDocumentNumber: 1 } }],
  ])('refuses an incomplete or malformed answer %j', (answer) => {
    expect(refusal(() => parseFiscalResult(answer)).path).toBe('fiscal');
  });
});
