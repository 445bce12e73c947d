/** The most a push's JSON may take (push services accept about 4 KB; small pushes arrive sooner). */
export const MAX_PAYLOAD_BYTES = 2048;

const ID_KEY = /(^|_)id$/;

export interface PushPayload {
  type: string;
  title: string;
  body: string;
  /** Ids to link to only (`notification_id`, `booking_id`...): nothing about a guest or a payment. */
  data: Record<string, string | number>;
}

/**
 * The push's JSON: the notification's type, title and body (shortened with "…" to fit MAX_PAYLOAD_BYTES) and its id
 * fields only (`*_id` keys with short string or number values).
 */
export function pushPayload(notification: {
  id: string;
  type: string;
  title: string;
  body: string;
  data: Record<string, unknown>;
}): string {
  const data: Record<string, string | number> = { notification_id: notification.id };
  for (const [key, value] of Object.entries(notification.data ?? {})) {
    if (!ID_KEY.test(key) || key === 'notification_id') continue;
    if ((typeof value === 'string' && value.length <= 64) || typeof value === 'number') data[key] = value;
  }
  const payload: PushPayload = { type: notification.type, title: notification.title, body: notification.body, data };
  let text = JSON.stringify(payload);
  let body = [...notification.body];
  while (Buffer.byteLength(text) > MAX_PAYLOAD_BYTES && body.length > 0) {
    const over = Buffer.byteLength(text) - MAX_PAYLOAD_BYTES;
    // Cyrillic letters take two bytes (and JSON escapes up to six): cut at least `over / 6` characters at a time.
    body = body.slice(0, Math.max(0, body.length - Math.max(1, Math.ceil(over / 6)) - 1));
    text = JSON.stringify({ ...payload, body: `${body.join('')}…` });
  }
  return text;
}
