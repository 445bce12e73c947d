import type { ModuleFixtures } from '../../platform/fixtures';
import type { WebhooksService } from './webhooks.service';

const receiver = (n: number) => `https://receiver.example.com/hooks/${n}`;

/** One subscription per hotel (a public URL: nothing is ever delivered to it by the gates' own worker in time). */
export const webhooksFixtures: ModuleFixtures<WebhooksService> = {
  records: { webhookSubscription: { paths: ['/api/hotels/:slug/webhooks/:id'] } },
  async seed(hotel) {
    const created = await hotel.request<{ id: string }>('/webhooks', {
      body: { url: `https://${hotel.canary}.example.com/hooks`, event_types: ['booking_created'] },
    });
    return { webhookSubscription: created.id };
  },
  requests: {
    body: {
      'POST /api/hotels/:slug/webhooks': { base: (_r, n) => ({ url: receiver(n), event_types: ['booking_created'] }) },
    },
  },
};
