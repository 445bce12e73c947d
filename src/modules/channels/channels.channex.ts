import type { ChannelCredentials } from './channels.credentials';
import { channexCall, pages, type ChannexOptions } from './channels.channex-call';
import { channexAriReads } from './channels.channex-reads';
import {
  type AvailabilityValue,
  type ChannelManager,
  type ChannelRatePlan,
  type ChannelRoomType,
  type PushResult,
  type RestrictionValue,
} from './channels.manager';
import { channexRevisions } from './channels.channex-revisions';

/** Items per page when listing room types and rate plans, and the most pages read (a property, not a catalogue). */
const PAGE_LIMIT = 100;
const MAX_PAGES = 20;

interface Resource {
  id: string;
  attributes?: Record<string, unknown>;
  relationships?: Record<string, { data?: { id?: string } | null }>;
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/**
 * The Channex adapter, through its one `call`: the listing and the two ARI pushes here (a 200's `meta.warnings`, the
 * items it refused, come back with the result), the booking revisions in `channels.channex-revisions.ts`.
 */
export function createChannexManager(options: ChannexOptions): ChannelManager {
  const call = channexCall(options);

  const all = (credentials: ChannelCredentials, path: string) =>
    pages(call, credentials, path, { limit: PAGE_LIMIT, most: MAX_PAGES }, (answer) =>
      Array.isArray(answer.data) ? (answer.data as Resource[]) : [],
    );

  async function push(credentials: ChannelCredentials, path: string, values: object[]): Promise<PushResult> {
    if (values.length === 0) return { warnings: [] };
    const items = values.map((value) => ({ property_id: credentials.propertyId, ...value }));
    const answer = await call(credentials, 'POST', path, { values: items });
    const meta = answer.meta as { warnings?: unknown[] } | undefined;
    return { warnings: Array.isArray(meta?.warnings) ? meta.warnings : [] };
  }

  return {
    ...channexAriReads(call),
    async listing(credentials) {
      // The property first: an unknown one is named as such rather than answered as a property with nothing.
      await call(credentials, 'GET', `/properties/${encodeURIComponent(credentials.propertyId)}`);
      const [roomTypes, ratePlans] = await Promise.all([
        all(credentials, '/room_types'),
        all(credentials, '/rate_plans'),
      ]);
      return {
        roomTypes: roomTypes.map((item): ChannelRoomType => ({ id: item.id, title: text(item.attributes?.title) })),
        ratePlans: ratePlans.map((item): ChannelRatePlan => ({
          id: item.id,
          title: text(item.attributes?.title),
          room_type_id:
            text(item.attributes?.room_type_id) || (item.relationships?.room_type?.data?.id ?? null) || null,
        })),
      };
    },
    pushAvailability: (credentials, values: AvailabilityValue[]) => push(credentials, '/availability', values),
    pushRestrictions: (credentials, values: RestrictionValue[]) => push(credentials, '/restrictions', values),
    ...channexRevisions(call),
  };
}
