import type { Knex } from 'knex';
import { categoryOfRoomType, signalChannelSync, tariffOfRatePlan, type ChannelsService } from '../channels';
import { channexIntake, type ChannelCall } from './channel-intake.channex';
import type { IntakeChannels } from './channel-intake.types';

/** Channex takes this long at most to answer intake (a revision, the feed, an acknowledgement). */
const TIMEOUT_MS = 15_000;

/**
 * Calls to Channex's API under a connection's key. Any failure (no answer, a 429, a 5xx, a refused key) fails the
 * intake's round, which is retried with backoff: nothing is acknowledged that was not applied, and a key staff
 * correct later lets the next attempt through.
 */
function channexCall(apiUrl: string, apiKey: string): ChannelCall {
  const root = apiUrl.replace(/\/$/, '');
  return async (method, path, body, missingOk) => {
    const response = await fetch(`${root}${path}`, {
      method,
      headers: {
        'user-api-key': apiKey,
        accept: 'application/json',
        ...(body && { 'content-type': 'application/json' }),
      },
      body: body && JSON.stringify(body),
      signal: AbortSignal.timeout(TIMEOUT_MS),
      redirect: 'error',
    });
    if (missingOk && response.status === 404) return undefined;
    if (!response.ok) throw new Error(`Channex answered ${response.status} to ${method} ${path.split('?')[0]}`);
    return response.json();
  };
}

/** The channels module as intake sees it: a hotel's connection with its mapping, and the ARI push's signal. */
export function intakeChannels(
  channels: Pick<ChannelsService, 'connectionOf' | 'session'>,
  apiUrl: string,
): IntakeChannels {
  return {
    async channelOf(hotelId) {
      const connection = await channels.connectionOf(hotelId);
      if (!connection || connection.provider !== 'channex') return undefined;
      const { credentials } = channels.session(connection);
      return channexIntake(channexCall(apiUrl, credentials.apiKey), {
        propertyId: connection.property_id,
        categoryOf: (roomTypeId) => categoryOfRoomType(connection, roomTypeId),
        tariffOf: (ratePlanId) => tariffOfRatePlan(connection, ratePlanId),
      });
    },
    pushAgain: (trx: Knex.Transaction, hotel) => signalChannelSync(trx, hotel, true),
  };
}
