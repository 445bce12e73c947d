import type { Knex } from 'knex';
import { hotelTable } from '../../platform/db/hotel-table';
import { pageOf, type Page, type PageRequest, type SortKey } from '../../platform/db/keyset';
import type { DbOrTrx } from '../../platform/db/knex';
import { settingsTable } from '../../platform/db/settings-table';
import { atVersion } from '../../platform/db/version';
import {
  ENCRYPTED_COLUMNS,
  type EncryptedColumn,
  type LockConfigRow,
  type RoomLock,
  type RoomLockInput,
  type StoredLogin,
} from './lockvendor.types';

export const configRepository = {
  ...settingsTable<LockConfigRow>('lock_configs'),

  /**
   * Keeps the tokens of a sign-in, only while the configuration is the one signed in with (`seen`, its version): a
   * token of an account staff have just replaced is dropped. Not a change by staff, so the version stays, unless the
   * server is saved too.
   */
  async storeLogin(db: DbOrTrx, hotelId: string, seen: Date, login: StoredLogin): Promise<boolean> {
    const { api_server: apiServer, ...tokens } = login;
    const changed = await db('lock_configs')
      .where({ hotel_id: hotelId })
      .modify(atVersion([seen.getTime()]))
      .update({ ...tokens, ...(apiServer && { api_server: apiServer, updated_at: db.fn.now() }) });
    return changed > 0;
  },

  /** Key rotation: up to `limit` rows (of one hotel, when given) with an envelope under another key, locked. */
  async lockUnderOtherKey(
    trx: Knex.Transaction,
    selection: { currentKeyId: string; limit: number; hotelId?: string },
  ): Promise<LockConfigRow[]> {
    const { currentKeyId, limit, hotelId } = selection;
    return trx<LockConfigRow>('lock_configs')
      .where((under) => {
        for (const column of ENCRYPTED_COLUMNS) under.orWhereRaw(`split_part(??, '.', 2) <> ?`, [column, currentKeyId]);
      })
      .modify((query) => hotelId && query.where({ hotel_id: hotelId }))
      .limit(limit)
      .forUpdate();
  },

  /** Rewrites envelopes only: re-encryption is not a change of the configuration, `updated_at` stays. */
  async setEnvelopes(db: DbOrTrx, hotelId: string, envelopes: Partial<Record<EncryptedColumn, string>>) {
    await db('lock_configs').where({ hotel_id: hotelId }).update(envelopes);
  },
};

const BY_MAC: SortKey[] = [
  { sql: 'lock_mac', type: 'text' },
  { sql: 'id', type: 'uuid' },
];

const roomLockRows = hotelTable<RoomLock, RoomLockInput>('room_locks');

export const roomLocksRepository = {
  find: roomLockRows.find,
  delete: roomLockRows.delete,

  async list(db: DbOrTrx, hotelId: string, page: PageRequest): Promise<Page<RoomLock>> {
    return pageOf(db, db('room_locks').select('*').where({ hotel_id: hotelId }), BY_MAC, page);
  },

  /** Every mapping of the hotel, to lay over the cloud's lock list. */
  async all(db: DbOrTrx, hotelId: string): Promise<RoomLock[]> {
    return db<RoomLock>('room_locks').where({ hotel_id: hotelId });
  },

  async ofRoom(db: DbOrTrx, hotelId: string, roomId: string): Promise<RoomLock | undefined> {
    return db<RoomLock>('room_locks').where({ hotel_id: hotelId, room_id: roomId }).first();
  },

  /**
   * The hotel's mapping of that MAC, created or changed: the fields given replace the stored ones, the optional ones
   * left out stay. `created` tells which (a row inserted by this statement has no xmax).
   */
  async upsert(db: DbOrTrx, hotelId: string, input: RoomLockInput): Promise<RoomLock & { created: boolean }> {
    const [row] = await db('room_locks')
      .insert({ ...input, hotel_id: hotelId })
      .onConflict(['hotel_id', 'lock_mac'])
      .merge({ ...input, updated_at: db.fn.now() })
      .returning(['*', db.raw('(xmax = 0) AS created')]);
    return row as RoomLock & { created: boolean };
  },

  async deleteByMac(db: DbOrTrx, hotelId: string, mac: string): Promise<boolean> {
    return (await db('room_locks').where({ hotel_id: hotelId, lock_mac: mac }).delete()) > 0;
  },
};
