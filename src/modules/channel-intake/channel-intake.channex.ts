import { BadGatewayError } from '../../platform/errors';
import { parseFeed, parseRevision } from './channel-intake.revision';
import type { IntakeChannel, IntakeMapping } from './channel-intake.types';

/**
 * One call to the channel's API under the hotel's key: its JSON answer (undefined for a 404 when `missingOk`), or a
 * failure the caller retries.
 */
export type ChannelCall = (
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  body?: object,
  missingOk?: boolean,
) => Promise<unknown>;

/** Revisions read from the feed per page, and the most pages a round reads (the rest wait for the next round). */
const FEED_LIMIT = 100;
const FEED_PAGES = 10;

/**
 * A hotel's booking revisions at Channex: the feed of those not acknowledged (of the connection's property, oldest
 * first), one revision by id, its acknowledgement; and the booking webhook.
 */
export function channexIntake(call: ChannelCall, mapping: IntakeMapping): IntakeChannel {
  const revisionPath = (id: string) => `/booking_revisions/${encodeURIComponent(id)}`;
  return {
    mapping,
    async feed() {
      const ids: string[] = [];
      for (let page = 1; page <= FEED_PAGES; page += 1) {
        const query = new URLSearchParams({
          'filter[property_id]': mapping.propertyId,
          'pagination[page]': String(page),
          'pagination[limit]': String(FEED_LIMIT),
        });
        const found = parseFeed(await call('GET', `/booking_revisions/feed?${query}`));
        ids.push(...found);
        if (found.length < FEED_LIMIT) break;
      }
      return [...new Set(ids)];
    },
    async revision(id) {
      const answer = await call('GET', revisionPath(id), undefined, true);
      return answer === undefined ? undefined : parseRevision(answer);
    },
    async ack(id) {
      await call('POST', `${revisionPath(id)}/ack`);
    },
    async registerWebhook(url, headers) {
      const webhook = {
        property_id: mapping.propertyId,
        callback_url: url,
        event_mask: 'booking',
        headers,
        is_active: true,
        send_data: false,
      };
      const answer = (await call('POST', '/webhooks', { webhook })) as { data?: { id?: unknown } };
      if (typeof answer?.data?.id !== 'string')
        throw new BadGatewayError('channel_answer', 'Channex answered a webhook without its id');
      return answer.data.id;
    },
    async removeWebhook(id) {
      await call('DELETE', `/webhooks/${encodeURIComponent(id)}`, undefined, true);
    },
  };
}
