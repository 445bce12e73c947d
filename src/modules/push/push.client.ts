import { readFileSync } from 'node:fs';
import https from 'node:https';
import tls from 'node:tls';
import { sendNotification, WebPushError } from 'web-push';
import type { VapidKeys } from './push.env';
import type { PushResponse, PushSubscriptionRow } from './push.types';

/** How long a push service keeps a push for an offline device: a notification older than this is stale. */
export const PUSH_TTL_SECONDS = 12 * 3600;
/**
 * One call to a push service, at most (no byte for this long: the request is abandoned and the attempt fails, to be
 * retried). A push service answers within a second; this stays well under the attempt's 10 s (`PUSH_SEND_OPTIONS`).
 */
export const PUSH_TIMEOUT_MS = 5000;
/** Retry-After is honoured within these bounds (absent or unreadable: a minute). */
export const RETRY_AFTER_MIN_MS = 1000;
export const RETRY_AFTER_MAX_MS = 3_600_000;
const RETRY_AFTER_DEFAULT_MS = 60_000;

export type PushClient = (
  subscription: Pick<PushSubscriptionRow, 'endpoint' | 'p256dh' | 'auth'>,
  payload: string,
) => Promise<PushResponse>;

/** `Retry-After`: seconds or an HTTP date, bounded. */
export function retryAfterMs(header: string | string[] | undefined, now = Date.now()): number {
  const value = Array.isArray(header) ? header[0] : header;
  let ms = RETRY_AFTER_DEFAULT_MS;
  if (value && /^\s*\d+\s*$/.test(value)) ms = Number(value) * 1000;
  else if (value && !Number.isNaN(Date.parse(value))) ms = Date.parse(value) - now;
  return Math.min(RETRY_AFTER_MAX_MS, Math.max(RETRY_AFTER_MIN_MS, ms));
}

/**
 * Sends one encrypted push (aes128gcm, RFC 8291) signed with the installation's VAPID key through the `web-push`
 * package. With `caFile`, that certificate is trusted besides the usual ones (the tests' fake push service).
 * Connections are kept for the next push, and let go after PUSH_TIMEOUT_MS idle or a second before the service's
 * announced `Keep-Alive: timeout` (node only honours that announcement under an agent timeout of its own), so a
 * push is not written to a connection the service is closing.
 */
export function createPushClient(vapid: VapidKeys, caFile?: string): PushClient {
  const agent = new https.Agent({
    keepAlive: true,
    timeout: PUSH_TIMEOUT_MS,
    ...(caFile && { ca: [...tls.rootCertificates, readFileSync(caFile, 'utf8')] }),
  });
  return async (subscription, payload) => {
    try {
      const response = await sendNotification(
        { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
        payload,
        {
          vapidDetails: vapid,
          TTL: PUSH_TTL_SECONDS,
          urgency: 'normal',
          contentEncoding: 'aes128gcm',
          timeout: PUSH_TIMEOUT_MS,
          agent,
        },
      );
      return { kind: 'sent', status: response.statusCode };
    } catch (error) {
      if (!(error instanceof WebPushError)) {
        return { kind: 'failed', status: null, detail: error instanceof Error ? error.message : String(error) };
      }
      const status = error.statusCode;
      if (status === 404 || status === 410) return { kind: 'gone', status };
      if (status === 429)
        return { kind: 'rateLimited', status, retryAfterMs: retryAfterMs(error.headers['retry-after']) };
      // 408 (the service timed out waiting) and 5xx are worth another try; other 4xx will be the same next time.
      if (status >= 400 && status < 500 && status !== 408) return { kind: 'refused', status, detail: `HTTP ${status}` };
      return { kind: 'failed', status, detail: `HTTP ${status}` };
    }
  };
}
