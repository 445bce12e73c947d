import { decryptSecret } from '../../platform/crypto';
import type { Db } from '../../platform/db/knex';
import { assertPublicDestination } from '../../platform/outbound';
import type { WebhookBatch, WebhookOutcome } from '../../../workflows/contracts/webhooks';
import { WEBHOOK_BATCH } from '../../../workflows/contracts/webhooks';
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

async function post(url: string, headers: Record<string, string>, body: string, allowPrivate: boolean) {
  try {
    // Checked again right before connecting: a name may resolve elsewhere since it was saved.
    await assertPublicDestination(url, { allowPrivate });
    const response = await fetch(url, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', 'user-agent': 'hotel-pms-webhooks' },
      body,
      // A redirect is not followed (its target was never checked): it counts as a failed attempt.
      redirect: 'manual',
      signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
    });
    await response.body?.cancel();
    const ok = response.status >= 200 && response.status < 300;
    return { statusCode: response.status, error: ok ? null : `HTTP ${response.status}` };
  } catch (error) {
    return { statusCode: null, error: error instanceof Error ? error.message.slice(0, 500) : 'failed' };
  }
}

/** What the delivery workflow's activities do: read the next events, send one, each attempt logged. */
export function createDelivery(
  db: Db,
  config: Pick<WebhooksConfig, 'encryption' | 'webhooks' | 'allowPrivateOutbound'>,
) {
  return {
    async next(hotelId: string, subscriptionId: string): Promise<WebhookBatch> {
      const retryHorizonSeconds = config.webhooks.retryHorizonSeconds;
      const row = await subscriptionsRepository.find(db, hotelId, subscriptionId);
      if (!row) return { status: 'gone', seqs: [], retryHorizonSeconds };
      if (row.status !== 'active') return { status: 'paused', seqs: [], retryHorizonSeconds };
      const events = await eventsRepository.after(db, hotelId, Number(row.cursor), WEBHOOK_BATCH, row.event_types);
      return { status: 'active', seqs: events.map((event) => Number(event.seq)), retryHorizonSeconds };
    },

    /** Sends `seq` when it is the subscription's next wanted event; the attempt is logged, the cursor moved on 2xx. */
    async send(hotelId: string, subscriptionId: string, seq: number, attempt: number) {
      const row = await subscriptionsRepository.find(db, hotelId, subscriptionId);
      if (!row || row.status !== 'active') return { outcome: 'stale' as WebhookOutcome };
      const cursor = Number(row.cursor);
      const [next] = await eventsRepository.after(db, hotelId, cursor, 1, row.event_types);
      if (!next || Number(next.seq) !== seq) return { outcome: 'stale' as WebhookOutcome };
      const body = JSON.stringify(presentEvent(next));
      const webhookId = webhookIdOf(subscriptionId, seq);
      const started = Date.now();
      const result = await post(
        row.endpoint,
        webhookHeaders(webhookId, body, signingSecrets(row, config)),
        body,
        config.allowPrivateOutbound,
      );
      await deliveriesRepository.record(db, {
        hotel_id: hotelId,
        subscription_id: subscriptionId,
        seq: String(seq),
        webhook_id: webhookId,
        attempt,
        status_code: result.statusCode,
        latency_ms: Date.now() - started,
        error: result.error,
      });
      if (result.error) return { outcome: 'failed' as const, error: result.error };
      const moved = await subscriptionsRepository.advance(db, hotelId, subscriptionId, cursor, seq);
      return { outcome: (moved ? 'delivered' : 'stale') as WebhookOutcome };
    },
  };
}
