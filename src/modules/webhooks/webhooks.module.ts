import { WEBHOOKS_REFUSED } from '../../../workflows/contracts/webhooks';
import { defineModule } from '../../platform/modules';
import { webhooksActivities } from './webhooks.activities';
import { webhooksEnv } from './webhooks.env';
import { webhookPaused } from './webhooks.events';
import { webhooksFixtures } from './webhooks.fixtures';
import { webhooksRoutes } from './webhooks.routes';
import { createWebhooksService, type WebhooksDependencies } from './webhooks.service';

/**
 * Outbound webhooks: a hotel's subscriptions, its events numbered in commit order and kept 30 days, their signed
 * delivery in order by one workflow per subscription, replay and the pull feed (docs/decisions/webhooks.md).
 */
export const webhooksModule = defineModule({
  name: 'webhooks',
  uses: ['notifications'],
  config: webhooksEnv,
  fixtures: webhooksFixtures,
  events: [webhookPaused],
  create: ({ db, config }, deps: WebhooksDependencies) => createWebhooksService(db, config, deps),
  routes: (webhooks) => webhooksRoutes(webhooks),
  activities: (webhooks) => webhooksActivities(webhooks),
  refusals: { type: WEBHOOKS_REFUSED },
});
