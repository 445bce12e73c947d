import type { YooKassaPayment } from '../../src/integrations/yookassa';
import {
  afterRefund,
  canCancel,
  canRelease,
  depositKindFor,
  readProviderPayment,
  refundable,
  releaseSplit,
} from '../../src/modules/deposits/deposits.rules';
import type { Deposit } from '../../src/modules/deposits/deposits.types';

const now = new Date('2026-11-24T10:00:00Z');

function deposit(overrides: Partial<Deposit> = {}): Deposit {
  return {
    id: 'd1',
    hotel_id: 'h1',
    booking_id: 'b1',
    kind: 'hold',
    status: 'hold_created',
    amount: '5000.00',
    currency: 'RUB',
    captured_amount: '0.00',
    refunded_amount: '0.00',
    deductions: [],
    pending_operation: null,
    card_last4: null,
    card_brand: null,
    provider_payment_id: 'p1',
    confirmation_url: null,
    return_url: null,
    cancel_reason: null,
    guest_email: null,
    created_by: null,
    confirmed_at: null,
    closed_at: null,
    statement_sent_at: null,
    created_at: now,
    updated_at: now,
    ...overrides,
  };
}

function payment(status: YooKassaPayment['status'], overrides: Partial<YooKassaPayment> = {}): YooKassaPayment {
  return {
    id: 'p1',
    status,
    paid: status !== 'pending',
    amount: { value: '5000.00', currency: 'RUB' },
    created_at: now.toISOString(),
    test: true,
    refundable: status === 'succeeded',
    payment_method: {
      type: 'bank_card',
      id: 'p1',
      saved: false,
      card: { last4: '4477', expiry_month: '12', expiry_year: '2030', card_type: 'MasterCard' },
    },
    ...overrides,
  };
}

describe('deposit kind', () => {
  const settings = { long_stay_charge_enabled: true, long_stay_threshold_days: 6 };

  it('charges a stay longer than the threshold in full instead of holding (a hold lives 7 days)', () => {
    expect(depositKindFor('hold', 7, settings)).toBe('yookassa_charge');
    expect(depositKindFor('hold', 6, settings)).toBe('hold');
    expect(depositKindFor('hold', 30, { ...settings, long_stay_charge_enabled: false })).toBe('hold');
    expect(depositKindFor('cash', 30, settings)).toBe('cash');
  });
});

describe('what staff may ask', () => {
  it('cancels only an unpaid card deposit or a cash one', () => {
    expect(canCancel(deposit({ status: 'hold_created' }))).toBe(true);
    expect(canCancel(deposit({ status: 'paid_cash', kind: 'cash' }))).toBe(true);
    expect(canCancel(deposit({ status: 'hold_confirmed' }))).toBe(false);
    expect(canCancel(deposit({ status: 'released' }))).toBe(false);
  });

  it('releases money held or taken, nothing else', () => {
    for (const status of ['hold_confirmed', 'paid', 'paid_cash', 'captured'] as const)
      expect(canRelease(deposit({ status }))).toBe(true);
    for (const status of ['hold_created', 'released', 'refunded', 'partially_refunded', 'cancelled'] as const)
      expect(canRelease(deposit({ status }))).toBe(false);
  });

  it('keeps the deductions and gives back the rest, refusing deductions above what is left', () => {
    const lines = [
      { name: 'Минибар', amount: '350.00' },
      { name: 'Бокал', amount: '1000.00' },
    ];
    expect(releaseSplit(deposit(), lines)).toEqual({ keep: 135_000n, giveBack: 365_000n });
    expect(releaseSplit(deposit(), [])).toEqual({ keep: 0n, giveBack: 500_000n });
    expect(releaseSplit(deposit(), [{ name: 'Всё', amount: '5000.01' }])).toBeUndefined();
    expect(releaseSplit(deposit({ refunded_amount: '4000.00' }), lines)).toBeUndefined();
  });

  it('refunds at most what was paid, minus what was kept, refunded or is being refunded', () => {
    const charged = deposit({ kind: 'yookassa_charge', status: 'paid' });
    expect(refundable(charged, 0n)).toBe(500_000n);
    expect(refundable(charged, 100_000n)).toBe(400_000n);
    expect(refundable(deposit({ ...charged, status: 'partially_refunded', refunded_amount: '1000.00' }), 0n)).toBe(
      400_000n,
    );
    expect(refundable(deposit({ status: 'captured' }), 0n)).toBe(500_000n);
    expect(refundable(deposit({ status: 'hold_confirmed' }), 0n)).toBe(0n);
    expect(refundable(deposit({ kind: 'cash', status: 'paid_cash' }), 0n)).toBe(0n);
  });

  it('is partially refunded while something remains, refunded after', () => {
    const charged = deposit({ kind: 'yookassa_charge', status: 'paid' });
    expect(afterRefund(charged, 100_000n)).toEqual({ status: 'partially_refunded', refunded_amount: '1000.00' });
    expect(afterRefund({ ...charged, refunded_amount: '1000.00' }, 400_000n)).toEqual({
      status: 'refunded',
      refunded_amount: '5000.00',
    });
  });
});

describe('a reading of the provider', () => {
  it('confirms a hold with the card, and a charge as paid', () => {
    expect(readProviderPayment(deposit(), payment('waiting_for_capture'), now)).toEqual({
      outcome: 'paid',
      changes: { status: 'hold_confirmed', confirmed_at: now, card_last4: '4477', card_brand: 'MasterCard' },
    });
    const charge = deposit({ kind: 'yookassa_charge' });
    expect(readProviderPayment(charge, payment('succeeded'), now).changes.status).toBe('paid');
  });

  it('cancels an unpaid deposit the provider cancelled, with its reason', () => {
    const declined = payment('canceled', {
      cancellation_details: { party: 'payment_network', reason: 'insufficient_funds' },
    });
    expect(readProviderPayment(deposit(), declined, now)).toEqual({
      outcome: 'failed',
      changes: { status: 'cancelled', cancel_reason: 'insufficient_funds', closed_at: now },
    });
  });

  it('changes nothing while the payer has not paid, or for a reading already recorded', () => {
    expect(readProviderPayment(deposit(), payment('pending'), now)).toEqual({
      outcome: 'awaiting_payment',
      changes: {},
    });
    const confirmed = deposit({ status: 'hold_confirmed' });
    expect(readProviderPayment(confirmed, payment('waiting_for_capture'), now)).toEqual({
      outcome: 'paid',
      changes: {},
    });
    const released = deposit({ status: 'released' });
    expect(readProviderPayment(released, payment('succeeded'), now)).toEqual({ outcome: 'failed', changes: {} });
  });

  it('marks a confirmed hold the provider let lapse as expired', () => {
    const lapsed = payment('canceled', { cancellation_details: { party: 'yoo_money', reason: 'expired_on_capture' } });
    expect(readProviderPayment(deposit({ status: 'hold_confirmed' }), lapsed, now).changes).toMatchObject({
      status: 'expired',
      cancel_reason: 'expired_on_capture',
    });
  });

  it('hands back money paid for a deposit cancelled meanwhile, once', () => {
    const cancelled = deposit({ status: 'cancelled' });
    expect(readProviderPayment(cancelled, payment('waiting_for_capture'), now).reverse).toBe('cancel_hold');
    expect(readProviderPayment(cancelled, payment('succeeded'), now).reverse).toBe('refund_charge');
    const refunded = payment('succeeded', { refunded_amount: { value: '5000.00', currency: 'RUB' } });
    expect(readProviderPayment(cancelled, refunded, now)).toEqual({ outcome: 'failed', changes: {} });
    expect(readProviderPayment(cancelled, payment('pending'), now).outcome).toBe('awaiting_payment');
  });
});
