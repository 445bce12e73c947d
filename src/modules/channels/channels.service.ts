import { decryptSecret, encryptSecret } from '../../platform/crypto';
import type { Db, DbOrTrx } from '../../platform/db/knex';
import { enqueueOutbox } from '../../platform/db/outbox';
import { ConflictError, NotFoundError } from '../../platform/errors';
import { secretHint } from '../../platform/issued-secrets';
import { CHANNEL_CHANGED_SIGNAL, channelWorkflowIds, type ChannelChange } from '../../../workflows/contracts/channels';
import type { BookingsService } from '../bookings';
import type { HotelsService } from '../hotels';
import type { NotificationsService } from '../notifications';
import type { PricingService, QuoteService } from '../pricing';
import type { RestrictionsService } from '../restrictions';
import type { RoomsService } from '../rooms';
import { createAriReader } from './channels.ari';
import { createChannexManager } from './channels.channex';
import type { ChannelsConfig } from './channels.env';
import { channelMessages, fromChannel } from './channels.errors';
import { reconciliationSummary } from './channels.reconcile';
import type { ChannelManager } from './channels.manager';
import { checkOurSide, checkTheirSide } from './channels.mapping';
import { connectionsRepository, pushedRepository } from './channels.repository';
import { createChannelPush } from './channels.sync';
import type { ChannelProvider, Connection, ConnectionChanges, ConnectionInput, ConnectionRow } from './channels.types';

export interface ChannelsDependencies {
  hotels: Pick<HotelsService, 'find'>;
  rooms: Pick<RoomsService, 'findCategory'>;
  bookings: Pick<BookingsService, 'calendar'>;
  restrictions: Pick<RestrictionsService, 'read'>;
  pricing: Pick<PricingService, 'findTariff'> & { quotes: Pick<QuoteService, 'quote'> };
  notifications: Pick<NotificationsService, 'notify'>;
}

type HotelRef = { id: string; slug: string };

const present = (row: ConnectionRow): Connection => ({
  id: row.id,
  provider: row.provider,
  property_id: row.property_id,
  api_key_hint: row.api_key_hint,
  room_types: row.room_types,
  rate_plans: row.rate_plans,
  last_synced_at: row.last_synced_at,
  last_error: row.last_error,
  last_reconciliation: row.last_reconciliation && {
    at: row.last_reconciliation.at,
    differences: row.last_reconciliation.differences,
    samples: row.last_reconciliation.samples,
    ...(row.last_reconciliation.failed !== undefined && { failed: row.last_reconciliation.failed }),
  },
  created_at: row.created_at,
  updated_at: row.updated_at,
});

/**
 * Tells the hotel's sync that dates changed, in the caller's transaction (it leaves at commit): `full` pushes every
 * value again. Changes to what is sold reach it by themselves (the inventory version's trigger); this is for the rest
 * (a connection, a request, intake's unplaced booking).
 */
export function signalChannelSync(trx: DbOrTrx, hotel: HotelRef, full: boolean) {
  return signalChange(trx, hotel, { full });
}

function signalChange(trx: DbOrTrx, hotel: HotelRef, change: ChannelChange) {
  return enqueueOutbox(trx, {
    kind: 'signalWithStart',
    workflowType: 'channelSync',
    workflowId: channelWorkflowIds.sync(hotel.id),
    args: [{ hotelId: hotel.id }],
    signal: CHANNEL_CHANGED_SIGNAL,
    signalArgs: [change],
    searchAttributes: { HotelSlug: hotel.slug },
    reviveFinished: true,
  });
}

export function createChannelsService(
  db: Db,
  config: ChannelsConfig,
  deps: ChannelsDependencies,
  managers: Record<ChannelProvider, ChannelManager> = {
    channex: createChannexManager({ baseUrl: config.channex.apiUrl }),
  },
) {
  const session = (row: Pick<ConnectionRow, 'provider' | 'property_id' | 'api_key_encrypted'>) => ({
    manager: managers[row.provider],
    credentials: { apiKey: decryptSecret(row.api_key_encrypted, config.encryption), propertyId: row.property_id },
  });

  async function found(conn: DbOrTrx, hotelId: string, lock = false): Promise<ConnectionRow> {
    const row = await (lock ? connectionsRepository.lock : connectionsRepository.find)(conn, hotelId);
    if (!row) throw new NotFoundError(channelMessages.notConnected);
    return row;
  }

  /** A change asked for by staff, for the hotel's sync (a connected hotel's only). */
  async function queued(hotel: HotelRef, change: ChannelChange) {
    await db.transaction(async (trx) => {
      await found(trx, hotel.id, true);
      await signalChange(trx, hotel, change);
    });
    return { queued: true };
  }

  /** The mapping checked on both sides (ours first: no call for a mapping that cannot be ours). */
  async function checked(hotelId: string, input: ConnectionInput) {
    await checkOurSide(deps, hotelId, input);
    const manager = managers[input.provider];
    const listing = await fromChannel(() => manager.listing({ apiKey: input.api_key, propertyId: input.property_id }));
    return checkTheirSide(listing, input);
  }

  return {
    /** Connects the hotel: key, property and mapping checked against the channel, then a full sync of 365 days. */
    async connect(hotel: HotelRef, input: ConnectionInput) {
      const mapping = await checked(hotel.id, input);
      return db.transaction(async (trx) => {
        if (await connectionsRepository.lock(trx, hotel.id)) throw new ConflictError(channelMessages.connected);
        const row = await connectionsRepository.insert(trx, {
          hotel_id: hotel.id,
          provider: input.provider,
          property_id: input.property_id,
          api_key_encrypted: encryptSecret(input.api_key, config.encryption),
          api_key_hint: secretHint(input.api_key),
          ...mapping,
        });
        await pushedRepository.clear(trx, hotel.id);
        await signalChannelSync(trx, hotel, true);
        return present(row);
      });
    },

    get: async (hotelId: string) => present(await found(db, hotelId)),

    /** A new key, property or mapping: checked again as a whole, then a full sync. */
    async update(hotel: HotelRef, changes: ConnectionChanges) {
      const current = await found(db, hotel.id);
      const input: ConnectionInput = {
        provider: current.provider,
        api_key: changes.api_key ?? session(current).credentials.apiKey,
        property_id: changes.property_id ?? current.property_id,
        room_types: changes.room_types ?? current.room_types,
        rate_plans:
          changes.rate_plans ?? current.rate_plans.map(({ rate_plan_id, tariff_id }) => ({ rate_plan_id, tariff_id })),
      };
      const mapping = await checked(hotel.id, input);
      return db.transaction(async (trx) => {
        await found(trx, hotel.id, true);
        const row = await connectionsRepository.update(trx, hotel.id, {
          property_id: input.property_id,
          ...(changes.api_key !== undefined && {
            api_key_encrypted: encryptSecret(changes.api_key, config.encryption),
            api_key_hint: secretHint(changes.api_key),
          }),
          ...mapping,
        });
        await signalChannelSync(trx, hotel, true);
        return present(row!);
      });
    },

    /** Disconnected: its sync is told, reads that and ends; nothing more is pushed. */
    async disconnect(hotel: HotelRef) {
      await db.transaction(async (trx) => {
        if ((await connectionsRepository.remove(trx, hotel.id)) === 0)
          throw new NotFoundError(channelMessages.notConnected);
        await pushedRepository.clear(trx, hotel.id);
        await signalChannelSync(trx, hotel, false);
      });
    },

    /** A full sync of the next 365 days, queued (202). */
    requestSync: (hotel: HotelRef) => queued(hotel, { full: true }),

    /**
     * A reconciliation, queued (202): the sync's next push first reads back what the channel holds and sends again
     * what differs from what we sent (the hotel's midnight asks for one by itself).
     */
    requestReconciliation: (hotel: HotelRef) => queued(hotel, { full: false, reconcile: true }),

    /** The sync's one push (its activity). */
    push: createChannelPush(db, {
      readAri: createAriReader(deps),
      session,
      refused: (hotelId, reason) =>
        db.transaction(async (trx) => {
          await deps.notifications.notify(trx, hotelId, {
            type: 'channel_sync_failed',
            title: channelMessages.syncRefusedTitle,
            body: reason.slice(0, 2000),
            // One a day per reason: a refusal repeated by every change is told once.
            dedupeKey: `channel-sync-failed:${hotelId}:${new Date().toISOString().slice(0, 10)}:${reason.slice(0, 100)}`,
            data: {},
          });
        }),
      mismatch: (trx, hotelId, record) =>
        deps.notifications
          .notify(trx, hotelId, {
            type: 'channel_reconciliation_mismatch',
            title: channelMessages.reconciliationTitle,
            body: reconciliationSummary(record),
            dedupeKey: `channel-reconciliation:${hotelId}:${record.request}`.slice(0, 200),
            data: { differences: record.differences },
          })
          .then(() => undefined),
    }),

    /** For intake: the hotel's connection, or by the channel's property id (a webhook names only that). */
    connectionOf: (hotelId: string, conn: DbOrTrx = db) => connectionsRepository.find(conn, hotelId),
    connectionByProperty: (provider: ChannelProvider, propertyId: string, conn: DbOrTrx = db) =>
      connectionsRepository.byProperty(conn, provider, propertyId),
    /** For intake's sweep: every hotel connected, whichever its provider (`session` gives each its adapter). */
    connectedHotels: () => connectionsRepository.connectedHotels(db),
    /** The adapter and the decrypted key of a connection. */
    session,
  };
}

export type ChannelsService = ReturnType<typeof createChannelsService>;
