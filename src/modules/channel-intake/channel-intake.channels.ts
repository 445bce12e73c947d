import type { Knex } from 'knex';
import {
  categoryOfRoomType,
  fromChannel,
  signalChannelSync,
  tariffOfRatePlan,
  type ChannelsService,
} from '../channels';
import type { IntakeChannels } from './channel-intake.types';

/**
 * The channels module as intake sees it: a hotel's connection with its mapping and its channel manager's booking
 * revisions (under the connection's key), and the ARI push's signal. A failing call answers in the channels module's
 * terms for a stored connection: no answer, a 429 or a 5xx is 503 `channel_unavailable` (with Retry-After), another
 * refusal (a refused key too) 502 `channel_refused`, an answer that cannot be read 502 `channel_answer`. Either fails
 * the intake's round, retried with a bounded backoff: nothing is acknowledged that was not applied, and a key staff
 * correct later lets the next attempt through.
 */
export function intakeChannels(
  channels: Pick<ChannelsService, 'connectionOf' | 'session' | 'connectedHotels'>,
): IntakeChannels {
  return {
    async channelOf(hotelId) {
      const connection = await channels.connectionOf(hotelId);
      if (!connection) return undefined;
      const { manager, credentials } = channels.session(connection);
      const asked = <T>(call: () => Promise<T>) => fromChannel(call, 'connection');
      return {
        mapping: {
          propertyId: connection.property_id,
          categoryOf: (roomTypeId) => categoryOfRoomType(connection, roomTypeId),
          tariffOf: (ratePlanId) => tariffOfRatePlan(connection, ratePlanId),
        },
        revisionFeed: () => asked(() => manager.revisionFeed(credentials)),
        revision: (id) => asked(() => manager.revision(credentials, id)),
        ackRevision: (id) => asked(() => manager.ackRevision(credentials, id)),
        registerWebhook: (url, headers) => asked(() => manager.registerWebhook(credentials, url, headers)),
        removeWebhook: (id) => asked(() => manager.removeWebhook(credentials, id)),
      };
    },
    connectedHotels: () => channels.connectedHotels(),
    pushAgain: (trx: Knex.Transaction, hotel) => signalChannelSync(trx, hotel, true),
  };
}
