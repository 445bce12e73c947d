import { randomUUID } from 'node:crypto';
import type {
  YooKassaCancellationDetails,
  YooKassaNotificationEvent,
  YooKassaPayment,
  YooKassaRefund,
} from '../../../src/integrations/yookassa';
import { testCard } from './cards';
import { FakeApiError, invalidRequest, notFound } from './errors';
import { fromAmount, toAmount, type Money } from './money';
import { parseCaptureRequest, parsePaymentRequest, parseRefundRequest, sameCurrency } from './requests';
import type { FakeState, PaymentRecord, Shop } from './state';

const CONFIRMATION_WINDOW_MS = 60 * 60_000;
const HOLD_WINDOW_MS = 7 * 24 * 60 * 60_000;
/** YooKassa's fee, so that income_amount differs from amount as it does for real. */
const COMMISSION_RATE = 0.035;

export type Notify = (shop: Shop, event: YooKassaNotificationEvent, object: YooKassaPayment | YooKassaRefund) => void;

export interface PaymentsOptions {
  state: FakeState;
  /** Where a payer confirms the payment (the payer page). */
  confirmationUrl(paymentId: string): string;
  notify: Notify;
}

/**
 * YooKassa's payment and refund life cycle. Every answer is a copy, so later changes never reach an answer already
 * given (or cached under an idempotence key).
 */
export class Payments {
  constructor(private readonly options: PaymentsOptions) {}

  create(shop: Shop, body: unknown): YooKassaPayment {
    const request = parsePaymentRequest(body);
    const id = randomUUID();
    const payment: YooKassaPayment = {
      id,
      status: 'pending',
      paid: false,
      amount: toAmount(request.amount),
      created_at: this.isoNow(shop),
      description: request.description,
      metadata: request.metadata,
      confirmation: {
        type: 'redirect',
        confirmation_url: this.options.confirmationUrl(id),
        return_url: request.returnUrl,
      },
      test: true,
      refundable: false,
    };
    this.options.state.addPayment(shop, { payment, capture: request.capture, refunds: [] });
    return structuredClone(payment);
  }

  get(shop: Shop, paymentId: string): YooKassaPayment {
    return structuredClone(this.find(shop, paymentId).payment);
  }

  /** A payment by its id alone, as the payer page knows it. */
  peek(paymentId: string): YooKassaPayment {
    return structuredClone(this.findAnywhere(paymentId).record.payment);
  }

  /** The payer paid with a test card on the payer page. */
  pay(paymentId: string, cardChoice: string): YooKassaPayment {
    const { shop, record } = this.findAnywhere(paymentId);
    const { payment } = record;
    if (payment.status !== 'pending') {
      throw new FakeApiError(409, 'invalid_request', `The payment is ${payment.status}, it can no longer be paid`);
    }
    const outcome = testCard(cardChoice);
    if (!outcome) throw invalidRequest('Not a test card: a test shop takes only test cards', 'card');
    payment.payment_method = {
      type: 'bank_card',
      id: randomUUID(),
      saved: false,
      title: `Bank card *${outcome.card.last4}`,
      card: outcome.card,
    };
    if (outcome.declineReason) {
      this.cancel(shop, record, { party: 'payment_network', reason: outcome.declineReason });
    } else if (record.capture) {
      this.succeed(shop, record, fromAmount(payment.amount));
    } else {
      Object.assign(payment, {
        status: 'waiting_for_capture',
        paid: true,
        expires_at: new Date(this.options.state.now(shop) + HOLD_WINDOW_MS).toISOString(),
      });
      this.announce(shop, 'payment.waiting_for_capture', payment);
    }
    return structuredClone(payment);
  }

  capture(shop: Shop, paymentId: string, body: unknown): YooKassaPayment {
    const record = this.holdOf(shop, paymentId, 'captured');
    this.succeed(shop, record, parseCaptureRequest(body, fromAmount(record.payment.amount)));
    return structuredClone(record.payment);
  }

  cancelHold(shop: Shop, paymentId: string): YooKassaPayment {
    const record = this.holdOf(shop, paymentId, 'canceled');
    this.cancel(shop, record, { party: 'merchant', reason: 'canceled_by_merchant' });
    return structuredClone(record.payment);
  }

  refund(shop: Shop, body: unknown): YooKassaRefund {
    const request = parseRefundRequest(body);
    const record = shop.payments.get(request.paymentId);
    if (!record) throw invalidRequest('No such payment in this shop', 'payment_id');
    this.settle(shop, record);
    const { payment } = record;
    if (payment.status !== 'succeeded') {
      throw invalidRequest(`The payment is ${payment.status}: only a succeeded payment can be refunded`, 'payment_id');
    }
    const captured = fromAmount(payment.amount);
    sameCurrency(request.amount, captured, 'amount.currency');
    const refunded = fromAmount(payment.refunded_amount!).minor + request.amount.minor;
    if (refunded > captured.minor) {
      throw invalidRequest(
        `The refunds would come to ${toAmount({ ...captured, minor: refunded }).value}, ` +
          `above the payment's ${payment.amount.value}`,
        'amount.value',
      );
    }
    const refund: YooKassaRefund = {
      id: randomUUID(),
      payment_id: payment.id,
      status: 'succeeded',
      amount: toAmount(request.amount),
      created_at: this.isoNow(shop),
      description: request.description,
    };
    record.refunds.push(refund);
    shop.refunds.set(refund.id, refund);
    payment.refunded_amount = toAmount({ ...captured, minor: refunded });
    payment.refundable = refunded < captured.minor;
    this.announce(shop, 'refund.succeeded', refund);
    return structuredClone(refund);
  }

  getRefund(shop: Shop, refundId: string): YooKassaRefund {
    const refund = shop.refunds.get(refundId);
    if (!refund) throw notFound('Refund not found');
    return structuredClone(refund);
  }

  /** The shop's payments as they stand now, each with its refunds. */
  list(shop: Shop): { payment: YooKassaPayment; refunds: YooKassaRefund[] }[] {
    return [...shop.payments.values()].map((record) => {
      this.settle(shop, record);
      return structuredClone({ payment: record.payment, refunds: record.refunds });
    });
  }

  /** Cancels every payment whose confirmation or hold window has passed (on the shop's clock). */
  expireDue(shop: Shop): void {
    for (const record of shop.payments.values()) this.settle(shop, record);
  }

  /** Sends the notification for the object's current state again (a duplicate, as YooKassa may send). */
  announceAgain(shop: Shop, event: YooKassaNotificationEvent, paymentId: string, refundId?: string): void {
    const record = this.find(shop, paymentId);
    if (event.startsWith('refund.')) {
      const refund = refundId ? record.refunds.find(({ id }) => id === refundId) : record.refunds.at(-1);
      if (!refund) throw notFound('The payment has no such refund');
      this.announce(shop, event, refund);
    } else {
      this.announce(shop, event, record.payment);
    }
  }

  private findAnywhere(paymentId: string): { shop: Shop; record: PaymentRecord } {
    const shop = this.options.state.shopOfPayment(paymentId);
    if (!shop) throw notFound('Payment not found');
    return { shop, record: this.find(shop, paymentId) };
  }

  private find(shop: Shop, paymentId: string): PaymentRecord {
    const record = shop.payments.get(paymentId);
    if (!record) throw notFound('Payment not found');
    this.settle(shop, record);
    return record;
  }

  /** A payment that must be waiting for capture to be `done` (captured or canceled) by the merchant. */
  private holdOf(shop: Shop, paymentId: string, done: string): PaymentRecord {
    const record = this.find(shop, paymentId);
    if (record.payment.status !== 'waiting_for_capture') {
      throw invalidRequest(
        `The payment is ${record.payment.status}: only a payment waiting_for_capture can be ${done}`,
        'payment_id',
      );
    }
    return record;
  }

  private settle(shop: Shop, record: PaymentRecord): void {
    const { payment } = record;
    const now = this.options.state.now(shop);
    if (payment.status === 'pending' && now >= Date.parse(payment.created_at) + CONFIRMATION_WINDOW_MS) {
      this.cancel(shop, record, { party: 'yoo_money', reason: 'expired_on_confirmation' });
    } else if (payment.status === 'waiting_for_capture' && now >= Date.parse(payment.expires_at!)) {
      this.cancel(shop, record, { party: 'yoo_money', reason: 'expired_on_capture' });
    }
  }

  private succeed(shop: Shop, record: PaymentRecord, captured: Money): void {
    Object.assign(record.payment, {
      status: 'succeeded',
      paid: true,
      amount: toAmount(captured),
      income_amount: toAmount({ ...captured, minor: captured.minor - Math.round(captured.minor * COMMISSION_RATE) }),
      captured_at: this.isoNow(shop),
      refunded_amount: toAmount({ ...captured, minor: 0 }),
      refundable: true,
    });
    delete record.payment.expires_at;
    this.announce(shop, 'payment.succeeded', record.payment);
  }

  private cancel(shop: Shop, record: PaymentRecord, details: YooKassaCancellationDetails): void {
    Object.assign(record.payment, { status: 'canceled', paid: false, cancellation_details: details });
    this.announce(shop, 'payment.canceled', record.payment);
  }

  private announce(shop: Shop, event: YooKassaNotificationEvent, object: YooKassaPayment | YooKassaRefund): void {
    this.options.notify(shop, event, structuredClone(object));
  }

  private isoNow(shop: Shop): string {
    return new Date(this.options.state.now(shop)).toISOString();
  }
}
