/**
 * The hotel-wide business events a subscription may want (the staff realtime kinds without an audience that tell of
 * a business fact; presence, chat and per-user notifications never leave). Their payloads are those of `/ws`.
 */
export const WEBHOOK_EVENT_TYPES = [
  'booking_created',
  'booking_updated',
  'booking:moved',
  'room_updated',
  'housekeeping_task_created',
  'housekeeping_updated',
  'housekeeping_done',
  'restrictions_changed',
  'deposit_updated',
  'invoice_updated',
  'rental_booking_created',
  'rental_booking_updated',
  'room_service_order_created',
  'room_service_order_updated',
  'card_issuance_updated',
  'review:updated',
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** Events are kept, replayed and served by the feed this long. */
export const WEBHOOK_KEEP_DAYS = 30;

export interface SubscriptionRow {
  id: string;
  hotel_id: string;
  endpoint: string;
  event_types: string[];
  status: 'active' | 'paused';
  paused_reason: string | null;
  secret_encrypted: string;
  secret_hint: string;
  previous_secret_encrypted: string | null;
  previous_secret_until: Date | null;
  cursor: string;
  created_at: Date;
  updated_at: Date;
}

/** A subscription as the API shows it: never its secret. */
export interface Subscription {
  id: string;
  endpoint: string;
  event_types: string[];
  status: 'active' | 'paused';
  paused_reason: string | null;
  secret_hint: string;
  previous_secret_until: Date | null;
  cursor: number;
  created_at: Date;
  updated_at: Date;
}

export interface EventRow {
  hotel_id: string;
  seq: string;
  type: string;
  payload: Record<string, unknown>;
  created_at: Date;
}

/** An event as a receiver gets it, in a delivery's body and in the pull feed. */
export interface WebhookEvent {
  seq: number;
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}

export interface DeliveryRow {
  id: string;
  seq: string;
  webhook_id: string;
  attempt: number;
  status_code: number | null;
  latency_ms: number;
  error: string | null;
  created_at: Date;
}

export interface SubscriptionInput {
  endpoint: string;
  event_types: string[];
}
