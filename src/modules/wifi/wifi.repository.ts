import type { DbOrTrx } from '../../platform/db/knex';
import { settingsTable } from '../../platform/db/settings-table';
import type { WifiSettingsRow } from './wifi.types';

export const settingsRepository = settingsTable<WifiSettingsRow>('wifi_settings');

export interface SessionKey {
  hotelId: string;
  bookingId: string;
  clientMac: string;
}

export const sessionsRepository = {
  /** Holds the stay's devices still until the transaction ends, so two new devices cannot both take the last place. */
  async lockStay(trx: DbOrTrx, bookingId: string): Promise<void> {
    await trx.raw('SELECT pg_advisory_xact_lock(hashtextextended(?, 0))', [`wifi:${bookingId}`]);
  },

  async devices(db: DbOrTrx, bookingId: string): Promise<string[]> {
    const rows = await db('wifi_sessions').where({ booking_id: bookingId }).select('client_mac');
    return rows.map((row: { client_mac: string }) => row.client_mac);
  },

  /** A device let in (again): a known one is renewed. */
  async upsert(db: DbOrTrx, key: SessionKey, at: Date, until: Date): Promise<void> {
    const row = { hotel_id: key.hotelId, booking_id: key.bookingId, client_mac: key.clientMac };
    await db('wifi_sessions')
      .insert({ ...row, authorized_at: at, until })
      .onConflict(['booking_id', 'client_mac'])
      .merge({ authorized_at: at, until });
  },
};
