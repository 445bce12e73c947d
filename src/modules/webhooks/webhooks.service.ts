import { encryptSecret } from '../../platform/crypto';
import type { Db, DbOrTrx } from '../../platform/db/knex';
import { enqueueOutbox } from '../../platform/db/outbox';
import { BusinessRuleError, NotFoundError } from '../../platform/errors';
import { secretHint } from '../../platform/issued-secrets';
import { assertPublicDestination } from '../../platform/outbound';
import { webhookWorkflowIds, WEBHOOK_WAKE_SIGNAL } from '../../../workflows/contracts/webhooks';
import type { NotificationsService } from '../notifications';
import { createDelivery, presentEvent } from './webhooks.delivery';
import type { WebhooksConfig } from './webhooks.env';
import { webhookPaused } from './webhooks.events';
import { deliveriesRepository, eventsRepository, subscriptionsRepository } from './webhooks.repository';
import { newSigningSecret } from './webhooks.signing';
import { WEBHOOK_KEEP_DAYS, type Subscription, type SubscriptionInput, type SubscriptionRow } from './webhooks.types';

export interface WebhooksDependencies {
  notifications: NotificationsService;
}

/** The roles that manage webhooks (HOTEL_MANAGEMENT, the routes' roles): they alone see a pause's realtime event. */
const WEBHOOK_MANAGERS = ['hotel_admin', 'manager'] as const;

/** Rows deleted per statement of the purge. */
const PURGE_BATCH = 5_000;

export const webhookMessages = {
  notFound: 'Подписка на вебхуки не найдена',
  tooOld: `Повтор возможен не дальше чем на ${WEBHOOK_KEEP_DAYS} дней назад: более ранние события не хранятся`,
  pausedTitle: 'Вебхук приостановлен',
  pausedBody: (host: string, reason: string) =>
    `Получатель на ${host} не принимал событие дольше срока повторов (${reason}). Подписка приостановлена: ` +
    'исправьте получателя и возобновите её.',
};

const present = (row: SubscriptionRow): Subscription => ({
  id: row.id,
  endpoint: row.endpoint,
  event_types: row.event_types,
  status: row.status,
  paused_reason: row.paused_reason,
  secret_hint: row.secret_hint,
  previous_secret_until: row.previous_secret_until,
  cursor: Number(row.cursor),
  created_at: row.created_at,
  updated_at: row.updated_at,
});

/** Starts the subscription's delivery workflow, or wakes it (and revives a finished one). */
function wake(trx: DbOrTrx, hotel: { id: string; slug: string }, subscriptionId: string) {
  return enqueueOutbox(trx, {
    kind: 'signalWithStart',
    workflowType: 'webhookDelivery',
    workflowId: webhookWorkflowIds.delivery(subscriptionId),
    args: [{ hotelId: hotel.id, subscriptionId }],
    signal: WEBHOOK_WAKE_SIGNAL,
    signalArgs: [],
    searchAttributes: { HotelSlug: hotel.slug },
    reviveFinished: true,
  });
}

/** Wakes a running delivery workflow only (after a pause or a deletion it reads that and ends). */
function nudge(trx: DbOrTrx, subscriptionId: string) {
  return enqueueOutbox(trx, {
    kind: 'signalWorkflow',
    workflowId: webhookWorkflowIds.delivery(subscriptionId),
    signal: WEBHOOK_WAKE_SIGNAL,
    args: [],
  });
}

export function createWebhooksService(db: Db, config: WebhooksConfig, deps: WebhooksDependencies) {
  const guard = (url: string) =>
    assertPublicDestination(url, { allowPrivate: config.allowPrivateOutbound, allowUnresolved: true });
  const sealed = (secret: string) => encryptSecret(secret, config.encryption);

  async function found(conn: DbOrTrx, hotelId: string, id: string, lock = false): Promise<SubscriptionRow> {
    const row = await (lock ? subscriptionsRepository.lock : subscriptionsRepository.find)(conn, hotelId, id);
    if (!row) throw new NotFoundError(webhookMessages.notFound);
    return row;
  }

  /**
   * Moves the cursor back to `after` (never forward: events at or below the cursor would never be delivered) and
   * wakes the delivery. `after` is given the hotel's horizon (the last seq no longer kept).
   */
  async function rewind(
    hotel: { id: string; slug: string },
    id: string,
    after: (trx: DbOrTrx, horizon: number) => Promise<number>,
  ) {
    return db.transaction(async (trx) => {
      const current = await found(trx, hotel.id, id, true);
      const cursor = Math.min(await after(trx, await eventsRepository.horizon(trx, hotel.id)), Number(current.cursor));
      const row = await subscriptionsRepository.update(trx, hotel.id, id, { cursor });
      await wake(trx, hotel, id);
      return present(row!);
    });
  }

  const tooOld = () => new BusinessRuleError(webhookMessages.tooOld, [], 'replay_too_old');

  return {
    delivery: createDelivery(db, config),

    list: async (hotelId: string) => (await subscriptionsRepository.list(db, hotelId)).map(present),
    get: async (hotelId: string, id: string) => present(await found(db, hotelId, id)),

    /** A new subscription, from the hotel's next event on; its secret is in this answer only. */
    async create(hotel: { id: string; slug: string }, input: SubscriptionInput) {
      await guard(input.endpoint);
      const secret = newSigningSecret();
      return db.transaction(async (trx) => {
        const row = await subscriptionsRepository.insert(trx, {
          hotel_id: hotel.id,
          endpoint: input.endpoint,
          event_types: [...new Set(input.event_types)],
          secret_encrypted: sealed(secret),
          secret_hint: secretHint(secret),
        });
        await wake(trx, hotel, row.id);
        return { ...present(row), secret };
      });
    },

    async update(hotelId: string, id: string, input: Partial<SubscriptionInput>) {
      if (input.endpoint !== undefined) await guard(input.endpoint);
      const changes = { ...input, ...(input.event_types && { event_types: [...new Set(input.event_types)] }) };
      const row = await subscriptionsRepository.update(db, hotelId, id, changes);
      if (!row) throw new NotFoundError(webhookMessages.notFound);
      return present(row);
    },

    /** Deleted; its workflow is nudged, reads that and ends at once. */
    async remove(hotelId: string, id: string) {
      await db.transaction(async (trx) => {
        if ((await subscriptionsRepository.remove(trx, hotelId, id)) === 0)
          throw new NotFoundError(webhookMessages.notFound);
        await nudge(trx, id);
      });
    },

    /** A new secret (in this answer only); the old one keeps signing beside it for WEBHOOK_PREVIOUS_SECRET_HOURS. */
    async rotate(hotelId: string, id: string) {
      const secret = newSigningSecret();
      return db.transaction(async (trx) => {
        const row = await found(trx, hotelId, id, true);
        const until = new Date(Date.now() + config.webhooks.previousSecretHours * 3_600_000);
        const updated = await subscriptionsRepository.update(trx, hotelId, id, {
          secret_encrypted: sealed(secret),
          secret_hint: secretHint(secret),
          previous_secret_encrypted: row.secret_encrypted,
          previous_secret_until: until,
        });
        return { ...present(updated!), secret };
      });
    },

    async setPaused(hotel: { id: string; slug: string }, id: string, paused: boolean) {
      return db.transaction(async (trx) => {
        await found(trx, hotel.id, id, true);
        const row = await subscriptionsRepository.update(trx, hotel.id, id, {
          status: paused ? 'paused' : 'active',
          paused_reason: paused ? 'paused by staff' : null,
        });
        await (paused ? nudge(trx, id) : wake(trx, hotel, id));
        return present(row!);
      });
    },

    /**
     * Delivers again from `seq` (inclusive; refused when that event is no longer kept) or from the first event at or
     * after `from` (refused beyond 30 days; otherwise from the oldest kept event at the earliest). Never forward.
     */
    replay: (hotel: { id: string; slug: string }, id: string, from: { from_seq?: number; from_time?: Date }) => {
      if (from.from_time && from.from_time.getTime() < Date.now() - WEBHOOK_KEEP_DAYS * 86_400_000) throw tooOld();
      return rewind(hotel, id, async (trx, horizon) => {
        if (from.from_seq === undefined)
          return Math.max(horizon, await eventsRepository.lastBefore(trx, hotel.id, from.from_time!));
        if (from.from_seq <= horizon) throw tooOld();
        return from.from_seq - 1;
      });
    },

    async deliveries(hotelId: string, id: string, limit: number, before?: number) {
      await found(db, hotelId, id);
      const items = await deliveriesRepository.list(db, hotelId, id, limit, before);
      return {
        items: items.map((item) => ({ ...item, id: Number(item.id), seq: Number(item.seq) })),
        next_before: items.length === limit ? Number(items[items.length - 1].id) : null,
      };
    },

    /**
     * The pull feed: the hotel's published events after `after`, in order, as deliveries carry them. It starts after
     * the horizon at the earliest (`started_after`): a receiver whose `after` is below `horizon` missed the events
     * that were purged in between.
     */
    async feed(hotelId: string, after: number, limit: number) {
      const horizon = await eventsRepository.horizon(db, hotelId);
      const start = Math.max(after, horizon);
      const items = (await eventsRepository.after(db, hotelId, start, limit)).map(presentEvent);
      return {
        items,
        next_after: items.length > 0 ? items[items.length - 1].seq : start,
        started_after: start,
        horizon,
      };
    },

    /** After the retry horizon: paused, its admins told (once per pause) and staff screens updated. */
    async pauseAfterHorizon(hotelId: string, id: string, reason: string) {
      await db.transaction(async (trx) => {
        const row = await subscriptionsRepository.lock(trx, hotelId, id);
        if (!row || row.status !== 'active') return;
        // The event it failed on: the first one wanted after the cursor.
        const [failed] = await eventsRepository.after(trx, hotelId, Number(row.cursor), 1, row.event_types);
        const seq = failed ? Number(failed.seq) : Number(row.cursor) + 1;
        const why = `event ${seq}: ${reason}`.slice(0, 2000);
        await subscriptionsRepository.update(trx, hotelId, id, { status: 'paused', paused_reason: why });
        await deps.notifications.notify(trx, hotelId, {
          type: 'webhook_paused',
          title: webhookMessages.pausedTitle,
          body: webhookMessages.pausedBody(new URL(row.endpoint).host, reason).slice(0, 2000),
          dedupeKey: `webhook-paused:${id}:${seq}`,
          data: { subscription_id: id, seq },
        });
        // Only those who manage webhooks see it (the reason names the receiver's host).
        const audience = (await deps.notifications.staffOf(hotelId, WEBHOOK_MANAGERS)).map((staff) => staff.id);
        await webhookPaused.publish(
          trx,
          hotelId,
          { subscription_id: id, seq, reason: reason.slice(0, 500) },
          { audience },
        );
      });
    },

    /** Events and attempts older than 30 days, in batches (short statements, short locks); how many went. */
    async purgeExpired() {
      let purged = 0;
      for (const purge of [eventsRepository.purgeEvents, deliveriesRepository.purge]) {
        for (let went = PURGE_BATCH; went === PURGE_BATCH; purged += went) went = await purge(db, PURGE_BATCH);
      }
      return purged;
    },
  };
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;
