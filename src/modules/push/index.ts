export type { PushService } from './push.service';
export { MAX_SUBSCRIPTIONS_PER_USER } from './push.service';
