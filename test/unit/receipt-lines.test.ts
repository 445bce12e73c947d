import type { Booking } from '../../src/modules/bookings';
import { paymentReceipt, paymentShares } from '../../src/modules/billing/billing.receipts';
import { parseMoney } from '../../src/platform/money';

/** A stay of 10,000.00 with 1,500.00 of room service delivered, as a payment of `paid` (after it) leaves it. */
const stay = (paid: string, charges = '1500.00') =>
  ({
    status: 'checked_in',
    check_in: '2030-05-01',
    check_out: '2030-05-04',
    price: '10000.00',
    charges_amount: charges,
    paid_amount: paid,
    guest_email: 'guest@example.test',
    guest_phone: null,
  }) as unknown as Booking;

const roomService = { roomService: parseMoney('1500.00'), touristTax: 0n, minibar: 0n, rental: 0n };
const none = { touristTax: 0n, minibar: 0n, rental: 0n };
const shares = (paidAfter: string, amount: string, charges?: string) =>
  paymentShares(stay(paidAfter, charges), parseMoney(amount), roomService);

describe('what a desk payment settles: its receipt lines', () => {
  it('pays the lodging first, then room service; beyond the bill is an advance on the lodging', () => {
    expect(shares('11500.00', '11500.00')).toEqual({ lodging: 1_000_000n, roomService: 150_000n, ...none });
    expect(shares('11500.00', '1500.00')).toEqual({ lodging: 0n, roomService: 150_000n, ...none });
    expect(shares('11000.00', '2000.00')).toEqual({ lodging: 100_000n, roomService: 100_000n, ...none });
    expect(shares('12000.00', '12000.00')).toEqual({ lodging: 1_050_000n, roomService: 150_000n, ...none });
  });

  it('a refund gives back room service first', () => {
    expect(shares('10000.00', '-1500.00')).toEqual({ lodging: 0n, roomService: 150_000n, ...none });
    expect(shares('9000.00', '-2500.00')).toEqual({ lodging: 100_000n, roomService: 150_000n, ...none });
  });

  it('loyalty discounts come off the lodging', () => {
    // 1,000.00 of points redeemed: the lodging owes 9,000.00, room service still 1,500.00.
    expect(shares('10500.00', '10500.00', '500.00')).toEqual({ lodging: 900_000n, roomService: 150_000n, ...none });
  });

  it('prints one line per share, room service at its own VAT rate', () => {
    const settings = { fiscal_taxation: 'osn', fiscal_vat: '0', fiscal_vat_room_service: '20' } as const;
    const cash = { amount: '2000.00', method: 'cash' } as const;
    const { receipt } = paymentReceipt(stay('11000.00'), cash, settings, 'Кассир', roomService);
    expect(receipt.lines.map(({ name, unitPrice, vat }) => ({ name, unitPrice, vat }))).toEqual([
      { name: 'Проживание 01.05.2030–04.05.2030', unitPrice: '1000.00', vat: '0' },
      { name: 'Обслуживание в номер', unitPrice: '1000.00', vat: '20' },
    ]);
    expect(receipt.payments).toEqual([{ kind: 'cash', amount: '2000.00' }]);
    const lodgingOnly = paymentReceipt(
      stay('5000.00'),
      { ...cash, amount: '5000.00' },
      settings,
      'Кассир',
      roomService,
    );
    expect(lodgingOnly.receipt.lines.map((line) => line.name)).toEqual(['Проживание 01.05.2030–04.05.2030']);
  });

  it('pays the tourist tax, the minibar and rentals after the lodging and room service, each on its own line', () => {
    // 10,000.00 of lodging (no room service), 400.00 of tourist tax, 300.00 of minibar, 1,500.00 of rentals.
    const dues = { roomService: 0n, touristTax: 40_000n, minibar: 30_000n, rental: 150_000n };
    const paid = (after: string, amount: string) => paymentShares(stay(after, '0.00'), parseMoney(amount), dues);
    expect(paid('12200.00', '12200.00')).toEqual({
      lodging: 1_000_000n,
      touristTax: 40_000n,
      roomService: 0n,
      minibar: 30_000n,
      rental: 150_000n,
    });
    expect(paid('10500.00', '1000.00')).toMatchObject({ lodging: 50_000n, touristTax: 40_000n, minibar: 10_000n });
    expect(paid('10400.00', '-1800.00')).toMatchObject({
      lodging: 0n,
      touristTax: 0n,
      minibar: 30_000n,
      rental: 150_000n,
    });

    const settings = { fiscal_taxation: 'osn', fiscal_vat: '0', fiscal_vat_room_service: '22' } as const;
    const booking = stay('12200.00', '0.00');
    const { receipt } = paymentReceipt(booking, { amount: '12200.00', method: 'card' }, settings, 'Кассир', dues);
    expect(
      receipt.lines.map(({ name, unitPrice, vat, object, method }) => [name, unitPrice, vat, object, method]),
    ).toEqual([
      ['Проживание 01.05.2030–04.05.2030', '10000.00', '0', 'service', 'full_payment'],
      ['Туристический налог', '400.00', 'none', 'another', 'full_payment'],
      ['Мини-бар', '300.00', '22', 'commodity', 'full_payment'],
      ['Аренда', '1500.00', '22', 'service', 'full_payment'],
    ]);
  });
});
