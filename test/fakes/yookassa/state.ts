import type { YooKassaPayment, YooKassaRefund } from '../../../src/integrations/yookassa';

export type FaultMode = 'unavailable' | 'lose_response';

/** An answer kept under an idempotence key, replayed for a repeat of the same request. */
export interface CachedAnswer {
  /** Method, path and body of the request that made the answer. */
  fingerprint: string;
  status: number;
  body: unknown;
  expiresAt: number;
}

export interface PaymentRecord {
  payment: YooKassaPayment;
  /** Whether paying charges at once (succeeded) or only holds the money (waiting_for_capture). */
  capture: boolean;
  refunds: YooKassaRefund[];
}

/** Everything one shop id owns: nothing is shared between shops, so parallel tests never meet. */
export interface Shop {
  id: string;
  /** Set when the shop is provisioned (PUT /_fake/shops/:shopId); until then its API requests are refused. */
  secretKey?: string;
  /** Unset: the server's default webhook; null: no notifications at all. */
  webhookUrl?: string | null;
  /** How far this shop's clock runs ahead of the real one. */
  clockOffsetMs: number;
  payments: Map<string, PaymentRecord>;
  refunds: Map<string, YooKassaRefund>;
  idempotency: Map<string, CachedAnswer>;
  fault?: { mode: FaultMode; remaining: number };
  /** How many API requests the shop made, by `METHOD /path` (what a test counts). */
  requests: Map<string, number>;
}

export class FakeState {
  readonly shops = new Map<string, Shop>();
  /** Payment id -> its shop: the payer page knows only the payment. */
  private readonly paymentShops = new Map<string, Shop>();

  /** The shop with this id for the test controls, registered on first use (its API needs a secret key, see Shop). */
  shop(id: string): Shop {
    let shop = this.shops.get(id);
    if (!shop) {
      shop = {
        id,
        clockOffsetMs: 0,
        payments: new Map(),
        refunds: new Map(),
        idempotency: new Map(),
        requests: new Map(),
      };
      this.shops.set(id, shop);
    }
    return shop;
  }

  now(shop: Shop): number {
    return Date.now() + shop.clockOffsetMs;
  }

  addPayment(shop: Shop, record: PaymentRecord): void {
    shop.payments.set(record.payment.id, record);
    this.paymentShops.set(record.payment.id, shop);
  }

  shopOfPayment(paymentId: string): Shop | undefined {
    return this.paymentShops.get(paymentId);
  }

  /** The shop's fault for its next POST, used up by taking it. */
  takeFault(shop: Shop): FaultMode | undefined {
    if (!shop.fault || shop.fault.remaining <= 0) return undefined;
    shop.fault.remaining -= 1;
    return shop.fault.mode;
  }
}
