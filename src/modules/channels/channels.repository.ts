import type { Knex } from 'knex';
import { refusalsAs } from '../../platform/db/base-model';
import type { DbOrTrx } from '../../platform/db/knex';
import { ConflictError } from '../../platform/errors';
import { channelMessages } from './channels.errors';
import type { ConnectionRow, PushedState, Reconciliation } from './channels.types';

/** A property belongs to one connection (migration 117): another hotel's is refused. */
const oneHotelPerProperty = {
  unique: {
    channel_connections_provider_property_id_unique: () =>
      new ConflictError(channelMessages.propertyTaken, 'channel_property_taken'),
  },
};

const asJson = (row: object) =>
  Object.fromEntries(
    Object.entries(row).map(([key, value]) => [key, Array.isArray(value) ? JSON.stringify(value) : value]),
  );

export const connectionsRepository = {
  find: (conn: DbOrTrx, hotelId: string): Promise<ConnectionRow | undefined> =>
    conn('channel_connections').where({ hotel_id: hotelId }).first(),

  lock: (conn: DbOrTrx, hotelId: string): Promise<ConnectionRow | undefined> =>
    conn('channel_connections').where({ hotel_id: hotelId }).forUpdate().first(),

  /** The connection holding a provider's property (intake finds the hotel of a revision by it). */
  byProperty: (conn: DbOrTrx, provider: string, propertyId: string): Promise<ConnectionRow | undefined> =>
    conn('channel_connections').where({ provider, property_id: propertyId }).first(),

  /** Every hotel connected to a channel manager (any provider), with its slug (intake's minute sweep polls each). */
  connectedHotels: (conn: DbOrTrx): Promise<{ id: string; slug: string }[]> =>
    conn('channel_connections as c').join('hotels as h', 'h.id', 'c.hotel_id').select('c.hotel_id as id', 'h.slug'),

  async insert(conn: DbOrTrx, row: Partial<ConnectionRow> & { hotel_id: string }): Promise<ConnectionRow> {
    const [created] = await refusalsAs(oneHotelPerProperty, () =>
      conn('channel_connections').insert(asJson(row)).returning('*'),
    );
    return created as ConnectionRow;
  },

  async update(conn: DbOrTrx, hotelId: string, changes: Partial<ConnectionRow>): Promise<ConnectionRow | undefined> {
    const [row] = await refusalsAs(oneHotelPerProperty, () =>
      conn('channel_connections')
        .where({ hotel_id: hotelId })
        .update({ ...asJson(changes), updated_at: conn.fn.now() })
        .returning('*'),
    );
    return row as ConnectionRow | undefined;
  },

  /** The sync's outcome: whether the channel took a push, and what went wrong (null: nothing). Not a staff change. */
  async recordSync(conn: DbOrTrx, hotelId: string, outcome: { synced: boolean; error: string | null }) {
    await conn('channel_connections')
      .where({ hotel_id: hotelId })
      .update({
        last_error: outcome.error?.slice(0, 2000) ?? null,
        ...(outcome.synced && { last_synced_at: conn.fn.now() }),
      });
  },

  /** A reconciliation's record (bookkeeping, as `recordSync`'s). */
  async recordReconciliation(conn: DbOrTrx, hotelId: string, record: Reconciliation) {
    await conn('channel_connections')
      .where({ hotel_id: hotelId })
      .update({ last_reconciliation: JSON.stringify(record) });
  },

  remove: (conn: DbOrTrx, hotelId: string): Promise<number> =>
    conn('channel_connections').where({ hotel_id: hotelId }).delete(),

  /** Key rotation: up to `limit` rows (of one hotel, when given) whose key is under another key, locked. */
  lockUnderOtherKey(
    trx: Knex.Transaction,
    selection: { currentKeyId: string; limit: number; hotelId?: string },
  ): Promise<ConnectionRow[]> {
    return trx<ConnectionRow>('channel_connections')
      .whereRaw(`split_part(api_key_encrypted, '.', 2) <> ?`, [selection.currentKeyId])
      .modify((query) => selection.hotelId && query.where({ hotel_id: selection.hotelId }))
      .limit(selection.limit)
      .forUpdate();
  },

  /** Rewrites the envelope only: re-encryption is not a change of the connection, `updated_at` stays. */
  async setKeyEnvelope(conn: DbOrTrx, hotelId: string, envelope: string) {
    await conn('channel_connections').where({ hotel_id: hotelId }).update({ api_key_encrypted: envelope });
  },
};

/**
 * What was last pushed (migration 117): one row per kind and room type or rate plan, its values by date in one jsonb
 * map. Read whole; written once per push, only the rows whose map changed, in one statement.
 */
export const pushedRepository = {
  async get(conn: DbOrTrx, hotelId: string): Promise<PushedState> {
    const rows = (await conn('channel_ari_pushed').where({ hotel_id: hotelId }).select('kind', 'item_id', 'dates')) as {
      kind: keyof PushedState;
      item_id: string;
      dates: never;
    }[];
    const state: PushedState = { availability: {}, restrictions: {} };
    for (const row of rows) state[row.kind][row.item_id] = row.dates;
    return state;
  },

  async set(conn: DbOrTrx, hotelId: string, rows: { kind: keyof PushedState; item_id: string; dates: object }[]) {
    if (rows.length === 0) return;
    await conn('channel_ari_pushed')
      .insert(rows.map((row) => ({ hotel_id: hotelId, ...row, dates: JSON.stringify(row.dates) })))
      .onConflict(['hotel_id', 'kind', 'item_id'])
      .merge(['dates', 'updated_at']);
  },

  clear: (conn: DbOrTrx, hotelId: string) => conn('channel_ari_pushed').where({ hotel_id: hotelId }).delete(),

  /** The hotel's inventory version (migration 52): moved at the commit of every change to what it sells. */
  async inventoryVersion(conn: DbOrTrx, hotelId: string): Promise<number> {
    const row = (await conn('inventory_versions').where({ hotel_id: hotelId }).first('version')) as
      { version: string } | undefined;
    return Number(row?.version ?? 0);
  },
};
