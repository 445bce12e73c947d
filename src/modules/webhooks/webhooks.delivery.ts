import { decryptSecret } from '../../platform/crypto';
import type { Db } from '../../platform/db/knex';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { ValidationError } from '../../platform/errors';
import { guardedLookup, nonPublicKind, notPublicMessage } from '../../platform/outbound';
import { WEBHOOK_BATCH, WEBHOOK_ROUND_MS, type WebhookState } from '../../../workflows/contracts/webhooks';
import type { WebhooksConfig } from './webhooks.env';
import { deliveriesRepository, eventsRepository, subscriptionsRepository } from './webhooks.repository';
import { webhookHeaders, webhookIdOf } from './webhooks.signing';
import type { EventRow, SubscriptionRow, WebhookEvent } from './webhooks.types';

/** One attempt of a delivery lasts at most this long (connection, request and answer). */
export const WEBHOOK_TIMEOUT_MS = 10_000;

/** An event as receivers get it (a delivery's body, the pull feed's items). */
export const presentEvent = (row: EventRow): WebhookEvent => ({
  seq: Number(row.seq),
  type: row.type,
  timestamp: new Date(row.created_at).toISOString(),
  data: row.payload,
});

/** What one attempt came to: the receiver's status, or why there was none. */
export interface AttemptResult {
  statusCode: number | null;
  error: string | null;
}

/** The secrets that sign now: the current one, and the one rotated out while it still signs beside it. */
function signingSecrets(row: SubscriptionRow, config: Pick<WebhooksConfig, 'encryption'>): string[] {
  const secrets = [decryptSecret(row.secret_encrypted, config.encryption)];
  if (row.previous_secret_encrypted && row.previous_secret_until && row.previous_secret_until > new Date()) {
    secrets.push(decryptSecret(row.previous_secret_encrypted, config.encryption));
  }
  return secrets;
}

/** Why an attempt got no answer, naming nothing of the endpoint (no path, query, credentials or resolved address). */
function failureOf(error: unknown, signal: AbortSignal): string {
  if (signal.aborted) return 'timeout';
  if (error instanceof ValidationError) return error.message;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' ? code : 'connection failed';
}

/**
 * POSTs one delivery. The host is resolved once, by the guard, and the connection goes to the address it checked
 * (`guardedLookup`); a literal address is checked as it is. DNS, connection, request and answer all fit in
 * WEBHOOK_TIMEOUT_MS, and `cancelled` (the activity's cancellation) stops it at once. A redirect is not followed (its
 * target was never checked): it counts as a failed attempt.
 */
export function postWebhook(
  url: string,
  headers: Record<string, string>,
  body: string,
  options: { allowPrivate: boolean; cancelled?: AbortSignal },
): Promise<AttemptResult> {
  const target = new URL(url);
  const host = target.hostname.replace(/^\[(.*)\]$/, '$1');
  const signal = AbortSignal.any([
    AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
    ...(options.cancelled ? [options.cancelled] : []),
  ]);
  return new Promise<AttemptResult>((resolve) => {
    const fail = (error: unknown) => resolve({ statusCode: null, error: failureOf(error, signal) });
    if (!options.allowPrivate && isIP(host) && nonPublicKind(host))
      return fail(new ValidationError(notPublicMessage(host)));
    const request = (target.protocol === 'https:' ? https : http).request(target, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', 'user-agent': 'hotel-pms-webhooks' },
      lookup: guardedLookup({ allowPrivate: options.allowPrivate }),
      signal,
    });
    request.on('error', fail);
    request.on('response', (response) => {
      response.resume();
      const status = response.statusCode ?? 0;
      const ok = status >= 200 && status < 300;
      resolve({ statusCode: status, error: ok ? null : `HTTP ${status}` });
    });
    request.end(body);
  });
}

/** What a round is given by its activity: a heartbeat, and the activity's cancellation. */
export interface RoundActivity {
  heartbeat(): void;
  cancelled?: AbortSignal;
}

/** What the delivery workflow's activities do: read the state, send rounds of events, each attempt logged. */
export function createDelivery(
  db: Db,
  config: Pick<WebhooksConfig, 'encryption' | 'webhooks' | 'allowPrivateOutbound'>,
) {
  /** One attempt at one event: logged with its number (that event's earlier attempts to this subscription + 1). */
  async function attempt(
    row: SubscriptionRow,
    event: EventRow,
    secrets: string[],
    number: number,
    cancelled?: AbortSignal,
  ) {
    const seq = Number(event.seq);
    const body = JSON.stringify(presentEvent(event));
    const webhookId = webhookIdOf(row.id, seq);
    const started = Date.now();
    const headers = webhookHeaders(webhookId, body, secrets);
    const result = await postWebhook(row.endpoint, headers, body, {
      allowPrivate: config.allowPrivateOutbound,
      cancelled,
    });
    await deliveriesRepository.record(db, {
      hotel_id: row.hotel_id,
      subscription_id: row.id,
      seq: String(seq),
      webhook_id: webhookId,
      attempt: number,
      status_code: result.statusCode,
      latency_ms: Date.now() - started,
      error: result.error,
    });
    return result;
  }

  return {
    async state(hotelId: string, subscriptionId: string): Promise<WebhookState> {
      const retryHorizonSeconds = config.webhooks.retryHorizonSeconds;
      const row = await subscriptionsRepository.find(db, hotelId, subscriptionId);
      return { status: row ? row.status : 'gone', retryHorizonSeconds };
    },

    /**
     * Sends the next wanted events one at a time until one fails, the round's time is up, the activity is cancelled
     * (`activity.cancelled`), or the cursor moved meanwhile (a replay, a pause); `activity.heartbeat` is called before
     * each event. `failed` only when the round's first event failed. Caught up, the cursor moves on over the events
     * scanned that the subscription does not want (the next round's scan starts after them).
     */
    async round(hotelId: string, subscriptionId: string, activity: RoundActivity) {
      const row = await subscriptionsRepository.find(db, hotelId, subscriptionId);
      if (!row || row.status !== 'active')
        return { status: row ? row.status : ('gone' as const), delivered: 0, caughtUp: true };
      let cursor = Number(row.cursor);
      // Read first: any event committed later has a higher seq (seqs are given in commit order).
      const through = await eventsRepository.last(db, hotelId);
      const events = await eventsRepository.after(db, hotelId, cursor, WEBHOOK_BATCH, row.event_types, through);
      const attempts = await deliveriesRepository.attempts(
        db,
        hotelId,
        subscriptionId,
        events.map((e) => e.seq),
      );
      const secrets = signingSecrets(row, config);
      const started = Date.now();
      let delivered = 0;
      for (const event of events) {
        if (activity.cancelled?.aborted) break;
        activity.heartbeat();
        const seq = Number(event.seq);
        const number = (attempts.get(seq) ?? 0) + 1;
        const result = await attempt(row, event, secrets, number, activity.cancelled);
        if (result.error) {
          if (delivered === 0) return { failed: result.error };
          break;
        }
        if (!(await subscriptionsRepository.advance(db, hotelId, subscriptionId, cursor, seq))) break;
        cursor = seq;
        delivered += 1;
        if (Date.now() - started > WEBHOOK_ROUND_MS) break;
      }
      const caughtUp = delivered === events.length && events.length < WEBHOOK_BATCH;
      if (caughtUp && through > cursor)
        await subscriptionsRepository.advance(db, hotelId, subscriptionId, cursor, through);
      return { status: 'active' as const, delivered, caughtUp };
    },
  };
}
