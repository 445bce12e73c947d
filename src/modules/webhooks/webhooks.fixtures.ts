import type { ModuleFixtures } from '../../platform/fixtures';
import type { WebhooksService } from './webhooks.service';

const receiver = (n: number) => `https://receiver.example.com/hooks/${n}`;

/**
 * One subscription per hotel, paused (its public URL is never reached: a running delivery would retry for days in the
 * gates' worker); the sweep's own subscriptions want an event the gates never make.
 */
export const webhooksFixtures: ModuleFixtures<WebhooksService> = {
  records: { webhookSubscription: { paths: ['/api/hotels/:slug/webhooks/:id'] } },
  async seed(hotel) {
    const created = await hotel.request<{ id: string }>('/webhooks', {
      body: { endpoint: `https://${hotel.canary}.example.com/hooks`, event_types: ['booking_created'] },
    });
    await hotel.request(`/webhooks/${created.id}/pause`, { status: 200 });
    return { webhookSubscription: created.id };
  },
  requests: {
    body: {
      'PATCH /api/hotels/:slug/webhooks/:id': { base: () => ({ event_types: ['card_issuance_updated'] }) },
      'POST /api/hotels/:slug/webhooks': {
        base: (_r, n) => ({ endpoint: receiver(n), event_types: ['card_issuance_updated'] }),
      },
    },
  },
};
