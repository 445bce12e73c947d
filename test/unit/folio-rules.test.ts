import type { Booking, LedgerEntry } from '../../src/modules/bookings';
import { balanceOf, isClosed, lineOfEntry, openDate, stayLines } from '../../src/modules/folios/folios.rules';
import type { StayTax } from '../../src/modules/tourist-tax';

const vat = { lodging: '20', roomService: '10' } as const;
const stay = (fields: Partial<Booking>) =>
  ({ id: 'b1', check_in: '2026-03-01', check_out: '2026-03-04', price: '1000.00', ...fields }) as Booking;
const noTax: StayTax = { per_night: [], total: '0.00' };

describe('the business date', () => {
  it('is the day asked unless closed, then the day after the last closed one', () => {
    expect(openDate(null, '2026-03-01')).toBe('2026-03-01');
    expect(openDate('2026-02-28', '2026-03-01')).toBe('2026-03-01');
    expect(openDate('2026-03-01', '2026-03-01')).toBe('2026-03-02');
    expect(openDate('2026-12-31', '2026-03-01')).toBe('2027-01-01');
    expect(isClosed('2026-03-01', '2026-03-01')).toBe(true);
    expect(isClosed('2026-03-01', '2026-03-02')).toBe(false);
    expect(isClosed(null, '1900-01-01')).toBe(false);
  });
});

describe('a stay’s lines', () => {
  it('share the price equally among the nights, the remainder on the last, to the kopeck', () => {
    const lines = stayLines(stay({}), noTax, vat, '2026-03-01');
    expect(lines.map((line) => [line.business_date, line.amount, line.vat_rate, line.source])).toEqual([
      ['2026-03-01', '333.33', '20', 'room_night:b1:2026-03-01'],
      ['2026-03-02', '333.33', '20', 'room_night:b1:2026-03-02'],
      ['2026-03-03', '333.34', '20', 'room_night:b1:2026-03-03'],
    ]);
    expect(balanceOf(lines)).toBe('1000.00');
  });

  it('put each taxed night’s tourist tax beside it, none for an exempt night', () => {
    const tax: StayTax = {
      per_night: [
        { date: '2026-03-01', base: '277.78', rate: '2', tax: '100.00', minimum: true, exempt: null },
        { date: '2026-03-02', base: '277.78', rate: '2', tax: '0.00', minimum: false, exempt: 'student' },
      ],
      total: '100.00',
    };
    const lines = stayLines(stay({ check_out: '2026-03-03' }), tax, vat, '2026-03-01');
    expect(lines.filter((line) => line.kind === 'tourist_tax')).toEqual([
      expect.objectContaining({ amount: '100.00', vat_rate: 'none', source: 'tourist_tax:b1:2026-03-01' }),
    ]);
  });

  it('make an hourly stay one line of its whole price on the day', () => {
    const lines = stayLines(stay({ check_in: null, check_out: null, price: '1500.50' }), noTax, vat, '2026-05-05');
    expect(lines).toEqual([expect.objectContaining({ amount: '1500.50', business_date: '2026-05-05' })]);
  });
});

describe('the line of a stay’s record', () => {
  const booking = stay({});
  const payment = { id: 'p1', amount: '2500.00', method: 'cash', created_by: 'u1' } as never;

  it('signs a payment negative, a negative payment (a refund) and a deleted payment positive', () => {
    expect(lineOfEntry({ kind: 'payment', booking, payment }, vat)).toMatchObject({
      kind: 'payment',
      amount: '-2500.00',
      source: 'payment:p1',
      posted_by: 'u1',
    });
    const refund = { ...(payment as object), amount: '-300.00' } as never;
    expect(lineOfEntry({ kind: 'payment', booking, payment: refund }, vat)).toMatchObject({
      kind: 'refund',
      amount: '300.00',
    });
    expect(lineOfEntry({ kind: 'payment_removed', booking, payment }, vat)).toMatchObject({
      kind: 'correction',
      amount: '2500.00',
      source: 'payment_removed:p1',
    });
  });

  it('keeps a charge’s amount: room service at its own VAT, a loyalty discount at the lodging’s', () => {
    const charge = (kind: string, amount: string) =>
      ({ kind: 'charge', booking, charge: { kind, amount, source_id: 's1', description: 'd' } }) as LedgerEntry;
    expect(lineOfEntry(charge('room_service', '851.00'), vat)).toMatchObject({
      kind: 'room_service',
      amount: '851.00',
      vat_rate: '10',
      source: 'charge:room_service:s1',
    });
    expect(lineOfEntry(charge('loyalty_redemption', '-300.00'), vat)).toMatchObject({
      kind: 'discount',
      amount: '-300.00',
      vat_rate: '20',
    });
  });
});
