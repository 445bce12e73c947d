import { parseFeed, parseRevision } from './channel-intake.revision';
import type { IntakeChannel, IntakeMapping } from './channel-intake.types';

/** One call to the channel's API under the hotel's key: its JSON answer, or a failure the caller retries. */
export type ChannelCall = (method: 'GET' | 'POST', path: string, body?: object) => Promise<unknown>;

/** Revisions read from the feed per page, and the most pages a round reads (the rest wait for the next round). */
const FEED_LIMIT = 100;
const FEED_PAGES = 10;

/**
 * A hotel's booking revisions at Channex: the feed of those not acknowledged (of the connection's property, oldest
 * first), one revision by id, its acknowledgement.
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
    revision: async (id) => parseRevision(await call('GET', revisionPath(id))),
    async ack(id) {
      await call('POST', `${revisionPath(id)}/ack`);
    },
  };
}
