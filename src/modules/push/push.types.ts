/** A browser's Web Push subscription, as stored (the keys never leave the server again). */
export interface PushSubscriptionRow {
  id: string;
  hotel_id: string;
  user_id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  created_at: Date;
  updated_at: Date;
}

/** What the browser's `PushSubscription.toJSON()` gives (`expirationTime` is accepted and ignored). */
export interface SubscribeInput {
  endpoint: string;
  keys: { p256dh: string; auth: string };
  expirationTime?: number | null;
}

export type SubscriptionView = Pick<PushSubscriptionRow, 'id' | 'endpoint' | 'created_at' | 'updated_at'>;

/** The push service's answer to one push. */
export type PushResponse =
  | { kind: 'sent'; status: number }
  | { kind: 'gone'; status: number }
  | { kind: 'rateLimited'; status: 429; retryAfterMs: number }
  | { kind: 'refused'; status: number; detail: string }
  | { kind: 'failed'; status: number | null; detail: string };

/** What one send came to: the push service's answer, or skipped before any call. */
export type SendResult = PushResponse | { kind: 'skipped'; detail: string };
