import type { Booking, LedgerEntry } from '../../src/modules/bookings';
import {
  balanceOf,
  isClosed,
  lineOfEntry,
  nightLine,
  nightShares,
  nightsStayed,
  openDate,
  taxLine,
} from '../../src/modules/folios/folios.rules';
import { formatMoney } from '../../src/platform/money';

const vat = { lodging: '20', roomService: '10' } as const;
const stay = (fields: Partial<Booking>) =>
  ({ id: 'b1', check_in: '2026-03-01', check_out: '2026-03-04', price: '1000.00', ...fields }) as Booking;

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

describe('a stay’s nights', () => {
  it('share what the price leaves equally among the nights not posted, the remainder on the last, to the kopeck', () => {
    const nights = ['2026-03-01', '2026-03-02', '2026-03-03'];
    const shares = [...nightShares('1000.00', 0n, nights).values()].map(formatMoney);
    expect(shares).toEqual(['333.33', '333.33', '333.34']);
    expect(balanceOf(shares.map((amount) => ({ amount })))).toBe('1000.00');
    // Repriced to 1200 after one night of 333.33 was posted: the two left share 866.67.
    expect([...nightShares('1200.00', 33333n, nights.slice(1)).values()].map(formatMoney)).toEqual([
      '433.33',
      '433.34',
    ]);
  });

  it('are a night’s line and its tax under the stay’s sources, the tax a correction when it goes down', () => {
    expect(nightLine('b1', '2026-03-01', 33333n, vat, 'night_audit')).toMatchObject({
      kind: 'room_night',
      amount: '333.33',
      vat_rate: '20',
      source: 'room_night:b1:2026-03-01',
      business_date: '2026-03-01',
    });
    expect(taxLine('b1', '2026-03-01', 10000n, 'check_in')).toMatchObject({
      kind: 'tourist_tax',
      source: 'tourist_tax:b1:2026-03-01',
    });
    expect(taxLine('b1', '2026-03-01', -500n, 'check_out', 'check_out')).toMatchObject({
      kind: 'correction',
      amount: '-5.00',
      source: 'tourist_tax:b1:check_out',
    });
  });

  it('stayed at a check-out: those before the day the guest left, the first if the guest left on arrival', () => {
    expect(nightsStayed(stay({}), '2026-03-03')).toEqual(['2026-03-01', '2026-03-02']);
    expect(nightsStayed(stay({}), '2026-03-09')).toEqual(['2026-03-01', '2026-03-02', '2026-03-03']);
    expect(nightsStayed(stay({}), '2026-03-01')).toEqual(['2026-03-01']);
    expect(nightsStayed(stay({ check_in: null, check_out: null }), '2026-03-01')).toEqual([]);
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
    expect(lineOfEntry({ kind: 'payment_removed', booking, payment, removedBy: 'u2' }, vat)).toMatchObject({
      kind: 'correction',
      amount: '2500.00',
      source: 'payment_removed:p1',
      posted_by: 'u2',
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
