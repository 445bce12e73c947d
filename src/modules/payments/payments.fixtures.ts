import type { ModuleFixtures } from '../../platform/fixtures';

/** The payment settings (a deduction preset), a payment method and a YooKassa gateway. */
export const paymentsFixtures: ModuleFixtures = {
  records: {
    paymentMethod: { paths: ['/api/hotels/:slug/payment-methods/:id'] },
    gateway: { paths: ['/api/hotels/:slug/payment-gateways/:id'] },
  },
  requests: {
    body: {
      // Shop ids are digits, which no probe value of the derivation is.
      'POST /api/hotels/:slug/payment-gateways': {
        base: (_r, n) => ({ provider: 'yookassa', shop_id: String(100 + n), secret_key: `gate-secret-${n}` }),
      },
    },
  },
  async seed({ request, canary }) {
    await request('/payment-settings', {
      method: 'patch',
      body: { deduction_presets: [{ name: `Preset ${canary}`, amounts: [500] }] },
    });
    const method = await request<{ id: string }>('/payment-methods', {
      body: { name: `Method ${canary}`, type: 'card' },
    });
    const gateway = await request<{ id: string }>('/payment-gateways', {
      body: {
        provider: 'yookassa',
        shop_id: String(Date.now()),
        secret_key: `${canary}-secret-key`,
        return_url: `https://${canary}.example.test/paid`,
      },
    });
    return { paymentMethod: method.id, gateway: gateway.id };
  },
};
