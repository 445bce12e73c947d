import type { Booking } from '../../src/modules/bookings';
import type { FolioLine } from '../../src/modules/folios';
import { receiptDuesOf } from '../../src/modules/folios/folios.dues';
import { paymentReceipt, printedShares } from '../../src/modules/billing/billing.receipts';
import { paymentShares, type ReceiptShare } from '../../src/modules/billing/billing.shares';
import { parseMoney } from '../../src/platform/money';

/** A stay of 10,000.00, as a payment of `paid` (after it) leaves it. */
const stay = (paid: string) =>
  ({
    id: 'b1',
    status: 'checked_in',
    check_in: '2030-05-01',
    check_out: '2030-05-04',
    price: '10000.00',
    charges_amount: '0.00',
    paid_amount: paid,
    guest_email: 'guest@example.test',
    guest_phone: null,
  }) as unknown as Booking;

const rub = (amount: string) => parseMoney(amount);
const lodging = (amount: string): ReceiptShare => ({ kind: 'lodging', vat_rate: null, amount: rub(amount) });
const thing = (kind: ReceiptShare['kind'], amount: string, vat: ReceiptShare['vat_rate'] = '22'): ReceiptShare => ({
  kind,
  vat_rate: vat,
  amount: rub(amount),
});
/** 10,000.00 of lodging and 1,500.00 of room service. */
const dues = [lodging('10000.00'), thing('room_service', '1500.00')];
const shares = (amount: string, receipted: ReceiptShare[] = [], paidBefore = '0', owed = dues) =>
  paymentShares(rub(amount), owed, receipted, rub(paidBefore));

describe('what a desk payment gives each thing: its receipt lines', () => {
  it('pays the lodging first, then room service; beyond the bill is an advance on the lodging', () => {
    expect(shares('11500.00')).toEqual([lodging('10000.00'), thing('room_service', '1500.00')]);
    expect(shares('1500.00', [lodging('10000.00')], '10000.00')).toEqual([thing('room_service', '1500.00')]);
    expect(shares('2000.00', [lodging('9000.00')], '9000.00')).toEqual([
      lodging('1000.00'),
      thing('room_service', '1000.00'),
    ]);
    expect(shares('12000.00')).toEqual([lodging('10500.00'), thing('room_service', '1500.00')]);
  });

  it('money paid without a desk receipt (online) pays the things in order', () => {
    expect(shares('2000.00', [], '10500.00')).toEqual([lodging('1000.00'), thing('room_service', '1000.00')]);
  });

  it('pays what each thing still owes net of what earlier receipts gave it, not a fixed order', () => {
    // Tax 160 and a prepayment of 8,000 of lodging, 5,160 receipted as the tax and a rental, then 300 of minibar.
    const owed = [lodging('8000.00'), thing('tourist_tax', '160.00', 'none'), thing('minibar', '300.00')];
    const receipted = [lodging('8000.00'), thing('tourist_tax', '160.00', 'none'), thing('rental', '5000.00')];
    const withRental = [...owed, thing('rental', '5000.00')];
    expect(shares('300.00', receipted, '13160.00', withRental)).toEqual([thing('minibar', '300.00')]);
  });

  it('a refund gives back only what was receipted, first what a thing no longer owes', () => {
    const receipted = [lodging('10000.00'), thing('room_service', '1500.00'), thing('minibar', '300.00')];
    // The minibar count corrected to nothing: the 300.00 given back is the minibar's.
    expect(shares('-300.00', receipted, '11800.00')).toEqual([thing('minibar', '300.00')]);
    expect(shares('-2500.00', receipted, '11800.00')).toEqual([
      lodging('700.00'),
      thing('room_service', '1500.00'),
      thing('minibar', '300.00'),
    ]);
  });

  it('a thing given back beyond what it owes never makes the receipt exceed the payment', () => {
    const owed = [lodging('10000.00'), thing('minibar', '-300.00')];
    expect(shares('10000.00', [], '0', owed)).toEqual([lodging('10000.00')]);
  });

  it('prints one line per share, each with its VAT rate and settlement object', () => {
    const settings = { fiscal_taxation: 'osn', fiscal_vat: '0' } as const;
    const given = [
      lodging('10000.00'),
      thing('tourist_tax', '400.00', 'none'),
      thing('service', '200.00', '22'),
      thing('minibar', '300.00'),
      thing('rental', '1500.00'),
    ];
    const { receipt } = paymentReceipt(
      stay('12400.00'),
      { amount: '12400.00', method: 'card' },
      settings,
      'Кассир',
      printedShares(given, settings),
    );
    expect(
      receipt.lines.map(({ name, unitPrice, vat, object, method }) => [name, unitPrice, vat, object, method]),
    ).toEqual([
      ['Проживание 01.05.2030–04.05.2030', '10000.00', '0', 'service', 'full_payment'],
      ['Туристический налог', '400.00', 'none', 'another', 'full_payment'],
      ['Услуги', '200.00', '22', 'service', 'full_payment'],
      ['Мини-бар', '300.00', '22', 'commodity', 'full_payment'],
      ['Аренда', '1500.00', '22', 'service', 'full_payment'],
    ]);
    expect(receipt.payments).toEqual([{ kind: 'card', amount: '12400.00' }]);
  });
});

describe('what the guest owes at the desk, from the folio lines', () => {
  const line = (id: string, kind: FolioLine['kind'], amount: string, more: Partial<FolioLine> = {}) =>
    ({
      id,
      folio_id: 'guest',
      kind,
      amount,
      vat_rate: '22',
      source: `x:${id}`,
      corrects_line_id: null,
      ...more,
    }) as FolioLine;

  it('the lodging is the price less discounts and nights moved away; the rest by kind and rate', () => {
    const nightMoved = line('n2', 'room_night', '5000.00', { folio_id: 'company', source: 'room_night:b1:2' });
    const lines = [
      line('n1', 'room_night', '5000.00', { source: 'room_night:b1:1', vat_rate: '0' }),
      line('d', 'discount', '-500.00', { vat_rate: '0' }),
      line('m', 'minibar', '300.00'),
      line('c', 'correction', '-100.00', { corrects_line_id: 'm', vat_rate: 'none' }),
      line('s', 'service', '200.00'),
      line('t', 'tourist_tax', '200.00', { vat_rate: 'none' }),
      line('p', 'payment', '-1000.00', { vat_rate: 'none' }),
    ];
    expect(receiptDuesOf({ id: 'b1', price: '10000.00' }, 'guest', lines, [lines[0], nightMoved])).toEqual([
      lodging('4500.00'),
      thing('tourist_tax', '200.00', 'none'),
      thing('service', '200.00'),
      thing('minibar', '200.00'),
    ]);
  });
});
