import type { PaymentsConfig } from './payments.env';
import {
  createYooKassaClient,
  YooKassaRequestError,
  type Amount,
  type CreatePaymentRequest,
  type Receipt,
  type YooKassaCredentials,
  type YooKassaPayment,
} from '../../integrations/yookassa';
import type { DbOrTrx } from '../../platform/db/knex';
import { ServiceUnavailableError } from '../../platform/errors';
import { phoneDigits } from '../../platform/phone';
import { formatMoney } from '../../platform/money';
import { gatewayMessages, type GatewaysService } from './payments.gateways';

/**
 * The hotel's YooKassa shop as the money workflows' steps use it: the client, and the hotel's credentials read at the
 * moment of the call (a gateway whose secret was replaced keeps working). The one place that talks to the provider:
 * the online payments here and the deposits module reach it through this.
 */
export function createProvider(config: Pick<PaymentsConfig, 'yookassa'>, gateways: GatewaysService) {
  const client = createYooKassaClient({ baseUrl: config.yookassa.apiUrl });

  /**
   * The hotel's credentials; without an active gateway the step fails and is retried (the hotel may restore it): not a
   * refusal, so the activity boundary lets it be retried.
   */
  async function credentials(hotelId: string): Promise<YooKassaCredentials> {
    const gateway = await gateways.activeYooKassa(hotelId);
    if (!gateway) throw new ServiceUnavailableError('no_gateway', gatewayMessages.noneActive);
    return { shopId: gateway.shopId, secretKey: gateway.secretKey };
  }

  return {
    client,

    gatewayOf: (hotelId: string, conn?: DbOrTrx) => gateways.activeYooKassa(hotelId, conn),

    credentials,

    /**
     * Creates a payment once per key and records it with `created`; a refusal (4xx) is final and recorded with
     * `refused` (its reason shown to staff). True when the payment exists.
     */
    async createPayment(
      hotelId: string,
      request: CreatePaymentRequest,
      idempotenceKey: string,
      record: { created(payment: YooKassaPayment): Promise<unknown>; refused(reason: string): Promise<unknown> },
    ): Promise<boolean> {
      try {
        await record.created(await client.createPayment(await credentials(hotelId), request, idempotenceKey));
        return true;
      } catch (error) {
        if (!isRefusal(error)) throw error;
        await record.refused(`provider_refused: ${error.code ?? error.message}`);
        return false;
      }
    },
  };
}

export type Provider = ReturnType<typeof createProvider>;

export function amountOf(cents: bigint, currency: string): Amount {
  return { value: formatMoney(cents), currency };
}

/** A provider refusal (4xx) is final: retrying with the same key would only be refused again. */
export function isRefusal(error: unknown): error is YooKassaRequestError {
  return error instanceof YooKassaRequestError && !error.retryable;
}

/**
 * A 54-FZ receipt when the guest left an address to send it to (the provider requires a contact); one line per item.
 * The phone goes in the form YooKassa documents (E.164 digits without `+`), and only when it parses: a phone that
 * does not leaves the receipt to the e-mail, or no receipt, never a refused payment.
 * VAT code 1 is "without VAT", the usual case of a deposit; the hotel's fiscal settings may refine it later.
 */
export function receiptFor(
  contact: { email?: string | null; phone?: string | null },
  lines: { description: string; cents: bigint }[],
  currency: string,
): Receipt | undefined {
  const phone = phoneDigits(contact.phone);
  if (!contact.email && !phone) return undefined;
  return {
    customer: { ...(contact.email && { email: contact.email }), ...(phone && { phone }) },
    items: lines.map((line) => ({
      description: line.description.slice(0, 128),
      quantity: '1.00',
      amount: amountOf(line.cents, currency),
      vat_code: 1,
      payment_subject: 'service',
      payment_mode: 'full_payment',
    })),
  };
}
