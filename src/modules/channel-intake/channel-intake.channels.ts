import type { Knex } from 'knex';
import { BadGatewayError, ServiceUnavailableError } from '../../platform/errors';
import { categoryOfRoomType, signalChannelSync, tariffOfRatePlan, type ChannelsService } from '../channels';
import { channexIntake, type ChannelCall } from './channel-intake.channex';
import type { IntakeChannels } from './channel-intake.types';

/** Channex takes this long at most to answer intake (a revision, the feed, an acknowledgement). */
const TIMEOUT_MS = 15_000;

/** Seconds a caller waits before asking again when the channel did not answer. */
const RETRY_AFTER_SECONDS = 30;

/**
 * Calls to Channex's API under a connection's key. A failure is the project's provider error, as the channels module
 * answers: no answer, a 429 or a 5xx is 503 `channel_unavailable` (with Retry-After), another refusal (a refused key
 * too) 502 `channel_refused`. Either fails the intake's round, retried with a bounded backoff: nothing is
 * acknowledged that was not applied, and a key staff correct later lets the next attempt through.
 */
function channexCall(apiUrl: string, apiKey: string): ChannelCall {
  const root = apiUrl.replace(/\/$/, '');
  return async (method, path, body, missingOk) => {
    const what = `${method} ${path.split('?')[0]}`;
    const unavailable = (detail: string) =>
      new ServiceUnavailableError(
        'channel_unavailable',
        `Менеджер каналов не отвечает (${detail})`,
        RETRY_AFTER_SECONDS,
      );
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
    }).catch((error: Error) => {
      throw unavailable(`${what}: ${error.message}`);
    });
    if (missingOk && response.status === 404) return undefined;
    if (response.status === 429 || response.status >= 500) throw unavailable(`${response.status} to ${what}`);
    if (!response.ok)
      throw new BadGatewayError('channel_refused', `Менеджер каналов отклонил запрос: ${response.status} to ${what}`);
    return response.json().catch(() => {
      throw new BadGatewayError('channel_answer', `Channex answered ${what} with no JSON`);
    });
  };
}

/** The channels module as intake sees it: a hotel's connection with its mapping, and the ARI push's signal. */
export function intakeChannels(
  channels: Pick<ChannelsService, 'connectionOf' | 'session' | 'connectedHotels'>,
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
    connectedHotels: () => channels.connectedHotels('channex'),
    pushAgain: (trx: Knex.Transaction, hotel) => signalChannelSync(trx, hotel, true),
  };
}
