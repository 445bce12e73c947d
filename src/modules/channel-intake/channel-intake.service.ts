import type { Knex } from 'knex';
import {
  CHANNEL_INTAKE_FETCH_SIGNAL,
  channelIntakeWorkflowIds,
  type IntakeRound,
} from '../../../workflows/contracts/channel-intake';
import { randomHexToken, sha256Hex } from '../../platform/crypto';
import type { Db } from '../../platform/db/knex';
import type { ModuleConfig } from '../../platform/modules';
import { enqueueCoalescedSignal, enqueueOutbox, type SignalMessage } from '../../platform/db/outbox';
import { transactionWithRetry } from '../../platform/db/retry';
import { BadGatewayError, ConflictError, NotFoundError, UnauthorizedError } from '../../platform/errors';
import { createApply, type ApplyDependencies, type Hotel } from './channel-intake.apply';
import { placementOf } from './channel-intake.booking';
import { hooksRepository as hooks, revisionsRepository as revisions } from './channel-intake.repository';
import type { IntakeChannel, IntakeChannels, RevisionOutcome, RevisionRecord } from './channel-intake.types';
import { intakeChannels } from './channel-intake.channels';
import { channelMicros, type ChannelRevision, type ChannelsService } from '../channels';

export interface ChannelIntakeDependencies extends Omit<ApplyDependencies, 'db' | 'channels'> {
  channels: Pick<ChannelsService, 'connectionOf' | 'session' | 'connectedHotels'>;
}

/** The header Channex is told to send with each webhook call (its webhook's custom headers). */
export const WEBHOOK_TOKEN_HEADER = 'x-channel-intake-token';
/** Where Channex calls (the public webhook route). */
export const WEBHOOK_PATH = '/api/channels/channex/webhook';

/** Revisions read from the channel at once, and channel bookings applied side by side, in a round. */
const FETCHES = 8;
const APPLIES = 4;

/** Which count of the round an outcome adds to. */
const OUTCOME_COUNTS = {
  applied: 'applied',
  unplaced: 'unplaced',
  superseded: 'superseded',
  duplicate: 'duplicates',
  placed: 'applied',
  dismissed: 'duplicates',
} as const satisfies Record<RevisionOutcome | 'duplicate', keyof Omit<IntakeRound, 'connected'>>;

/**
 * `work` for each item, at most `limit` at a time; the first failure is thrown once those under way have ended, and
 * no item is started after it.
 */
async function eachLimit<T>(items: Iterable<T>, limit: number, work: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    for (let item = queue.shift(); item !== undefined && !failure; item = queue.shift()) {
      try {
        await work(item);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, queue.length) }, worker));
  if (failure) throw failure.error;
}

/** The channel's order of revisions (its time there, to the microsecond; then the id). */
function byChannelOrder(a: ChannelRevision, b: ChannelRevision): number {
  const at = channelMicros(a.insertedAt) - channelMicros(b.insertedAt);
  if (at !== 0n) return at < 0n ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Webhooks of one hotel within this long wake its intake once. */
const WAKE_COALESCE_MS = 500;

const messages = {
  forged: 'Неизвестный токен вебхука канала',
  notFound: 'Неразмещённая бронь канала не найдена',
  settled: 'Эта бронь канала уже размещена, отклонена или заменена более новой',
  unmapped: 'Тип номера этой брони не сопоставлен с категорией: сопоставьте его или укажите номер',
  notConnected: 'Отель не подключён к менеджеру каналов',
};

function wakeMessage(hotelId: string, hotelSlug: string, revisionIds: string[] = []): SignalMessage {
  return {
    kind: 'signalWithStart',
    workflowType: 'channelIntake',
    workflowId: channelIntakeWorkflowIds.intake(hotelId),
    args: [{ hotelId }],
    signal: CHANNEL_INTAKE_FETCH_SIGNAL,
    signalArgs: [{ revisionIds }],
    searchAttributes: { HotelSlug: hotelSlug },
    memo: { hotel: hotelSlug },
    reviveFinished: true,
  };
}

/** The mapping of a hotel whose channel is gone: nothing maps (its unplaced bookings are placed by room). */
const unconnected = { propertyId: '', categoryOf: () => undefined, tariffOf: () => undefined };

/** A revision as the staff see it: what the OTA sold, and what became of it. */
function present(record: RevisionRecord) {
  const revision = record.revision as unknown as ChannelRevision;
  return {
    id: record.id,
    revision_id: record.revision_id,
    channel_booking_id: record.channel_booking_id,
    kind: record.kind,
    outcome: record.outcome,
    unplaced_reason: record.unplaced_reason,
    unplaced_detail: record.unplaced_detail,
    booking_id: record.booking_id,
    ota_name: record.ota_name,
    ota_reservation_code: record.ota_reservation_code,
    payment_collect: revision.paymentCollect,
    currency: revision.currency,
    guest: revision.customer,
    rooms: revision.rooms,
    channel_at: record.channel_at,
    created_at: record.created_at,
  };
}

export function createChannelIntakeService(
  db: Db,
  config: ModuleConfig,
  deps: ChannelIntakeDependencies,
  channels: IntakeChannels = intakeChannels(deps.channels),
) {
  const { bookings } = deps;
  const { apply, place } = createApply({ db, ...deps, channels });

  async function hotelOf(hotelId: string): Promise<Hotel> {
    return { id: hotelId, ...(await hooks.hotel(db, hotelId)) };
  }

  /**
   * The revision read from the channel: undefined when it has none of that id, or when its answer cannot be read
   * (recorded as unreadable and the staff told once, with the reason; the channel raises its alarm for the revision
   * left unacknowledged, and a later readable answer of it is applied).
   */
  async function readable(hotel: Hotel, channel: IntakeChannel, id: string, round: { unreadable: number }) {
    try {
      return await channel.revision(id);
    } catch (error) {
      if (!(error instanceof BadGatewayError) || error.code !== 'channel_answer') throw error;
      round.unreadable += 1;
      await transactionWithRetry(db, async (trx) => {
        await revisions.insertUnreadable(trx, hotel.id, id, error.message);
        await deps.notifications.notify(trx, hotel.id, {
          type: 'channel_booking_unplaced',
          title: 'Бронь канала не прочитана',
          body: `Менеджер каналов прислал бронь, которую не удалось прочитать (${id}): ${error.message}`.slice(0, 1000),
          data: { revision_id: id, reason: 'unreadable', detail: error.message.slice(0, 500) },
          dedupeKey: `channel-unreadable:${id}`,
        });
      });
      return undefined;
    }
  }

  async function unplacedRecord(trx: Knex.Transaction, hotelId: string, id: string) {
    const record = await revisions.find(trx, hotelId, id, true);
    if (!record) throw new NotFoundError(messages.notFound);
    if (record.outcome !== 'unplaced') throw new ConflictError(messages.settled, 'revision_settled');
    return record;
  }

  return {
    /**
     * One round of the hotel's intake: each revision of the feed (and those named) read from the channel, applied (or
     * recorded), then acknowledged. A named id the channel does not have is dropped; one it answers unreadably is
     * left unacknowledged and the staff told, the round going on; a revision that fails to apply is not acknowledged,
     * and the round fails for a (bounded) retry.
     */
    async pull(hotelId: string, named: readonly string[] = []): Promise<IntakeRound> {
      const round = { connected: false, applied: 0, duplicates: 0, superseded: 0, unplaced: 0, unreadable: 0 };
      const channel = await channels.channelOf(hotelId);
      if (!channel) {
        // Disconnected: its intake ends, and its webhook token with it (a new connection registers a new webhook).
        await hooks.remove(db, hotelId);
        return round;
      }
      round.connected = true;
      const hotel = await hotelOf(hotelId);
      const ids = [...new Set([...named, ...(await channel.revisionFeed())])];
      const read = new Array<ChannelRevision | undefined>(ids.length);
      await eachLimit(ids.keys(), FETCHES, async (index) => {
        read[index] = await readable(hotel, channel, ids[index], round);
      });
      // Another property's revision (a webhook may name any id) is neither applied nor acknowledged.
      const ours = read.filter((item): item is ChannelRevision => item?.propertyId === channel.mapping.propertyId);
      // One channel booking's revisions one after another, in the channel's order; different bookings side by side.
      const byBooking = new Map<string, ChannelRevision[]>();
      for (const revision of ours.sort(byChannelOrder))
        byBooking.set(revision.bookingId, [...(byBooking.get(revision.bookingId) ?? []), revision]);
      await eachLimit(byBooking.values(), APPLIES, async (group) => {
        for (const revision of group) {
          const outcome = await apply(hotel, revision, channel.mapping);
          await channel.ackRevision(revision.id);
          round[OUTCOME_COUNTS[outcome]] += 1;
        }
      });
      return round;
    },

    /**
     * The channel's webhook: a known token wakes the hotel's intake, which reads the revision named (by its id, from
     * the channel) and the feed; anything else is refused and changes nothing.
     */
    async notified(token: string | undefined, revisionId: string | undefined): Promise<void> {
      const hotelId = token && (await hooks.hotelOfToken(db, sha256Hex(token)));
      if (!hotelId) throw webhookRefusal();
      const slug = await hooks.hotelSlug(db, hotelId);
      if (revisionId) await enqueueOutbox(db, wakeMessage(hotelId, slug, [revisionId]));
      else await enqueueCoalescedSignal(db, wakeMessage(hotelId, slug), WAKE_COALESCE_MS);
    },

    /**
     * Every connected hotel's intake woken (the schedule's sweep): started, or revived after it ended, whether or not
     * its webhook was registered (the feed poll finds every revision within a minute).
     */
    async wakeAll(): Promise<number> {
      const hotels = await channels.connectedHotels();
      for (const { id, slug } of hotels) await enqueueCoalescedSignal(db, wakeMessage(id, slug), 0);
      return hotels.length;
    },

    /**
     * Sets up the hotel's intake: a new token, the booking webhook registered at the channel with it (the previous one
     * removed), and the intake started (the sweep polls it every minute from now on).
     */
    async connectWebhook(hotel: Pick<Hotel, 'id' | 'slug'>): Promise<{ webhook_id: string; path: string }> {
      const channel = await channels.channelOf(hotel.id);
      if (!channel) throw new ConflictError(messages.notConnected, 'channel_not_connected');
      const token = randomHexToken(32);
      const url = `${config.baseUrl.replace(/\/$/, '')}${WEBHOOK_PATH}`;
      const webhookId = await channel.registerWebhook(url, { [WEBHOOK_TOKEN_HEADER]: token });
      const previous = await transactionWithRetry(db, async (trx) => {
        const before = await hooks.lock(trx, hotel.id);
        await hooks.replace(trx, hotel.id, sha256Hex(token), webhookId);
        await enqueueOutbox(trx, wakeMessage(hotel.id, hotel.slug));
        return before?.webhook_id;
      });
      if (previous && previous !== webhookId) await channel.removeWebhook(previous);
      return { webhook_id: webhookId, path: WEBHOOK_PATH };
    },

    async unplaced(hotelId: string, limit: number, after?: Date) {
      return (await revisions.unplaced(db, hotelId, { limit, after })).map(present);
    },

    /** The revisions of one of the hotel's bookings (404 for a booking it does not have). */
    async ofBooking(hotelId: string, bookingId: string) {
      await bookings.get(hotelId, bookingId);
      return (await revisions.ofBooking(db, hotelId, bookingId)).map(present);
    },

    /**
     * Staff place an unplaced OTA booking: in the room they name, or any free room of its mapped category (a
     * modification of a live booking changes that booking; a cancellation is refused: they dismiss it).
     */
    async place(hotelId: string, id: string, roomId?: string) {
      const hotel = await hotelOf(hotelId);
      const record = await transactionWithRetry(db, (trx) => unplacedRecord(trx, hotelId, id));
      const revision = record.revision as unknown as ChannelRevision;
      const channel = await channels.channelOf(hotelId);
      const placement = placementOf(revision, channel?.mapping ?? unconnected, roomId);
      if (!placement.ok) throw new ConflictError(messages.unmapped, placement.reason);
      let settled: RevisionRecord | undefined;
      const booking = await place(hotel, record, placement, async (trx, made) => {
        await unplacedRecord(trx, hotelId, id);
        settled = await revisions.settle(trx, hotelId, id, 'placed', made?.id);
      });
      return { ...present(settled!), booking };
    },

    /** Staff dismiss an unplaced OTA booking (settled with the guest or the OTA outside): availability pushed again. */
    async dismiss(hotelId: string, id: string) {
      return transactionWithRetry(db, async (trx) => {
        await unplacedRecord(trx, hotelId, id);
        await channels.pushAgain(trx, { id: hotelId, slug: await hooks.hotelSlug(trx, hotelId) });
        return present(await revisions.settle(trx, hotelId, id, 'dismissed'));
      });
    },
  };
}

/** The one answer to a webhook call without a known token, whatever is wrong with it. */
export const webhookRefusal = () => new UnauthorizedError(messages.forged, 'channel_webhook_unauthorized');

export type ChannelIntakeService = ReturnType<typeof createChannelIntakeService>;
