export type { WebhooksService } from './webhooks.service';
export { WEBHOOK_EVENT_TYPES, type WebhookEvent } from './webhooks.types';
