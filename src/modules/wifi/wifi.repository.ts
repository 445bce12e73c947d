import type { DbOrTrx } from '../../platform/db/knex';
import { settingsTable } from '../../platform/db/settings-table';
import type { WifiSettingsRow } from './wifi.types';

export const settingsRepository = settingsTable<WifiSettingsRow>('wifi_settings');

/** One row per stay checked in to the room and guest profile linked to it; one row of nulls for no stay or room. */
export interface StayEvidence {
  room_id: string | null;
  booking_id: string | null;
  status: 'checked_in';
  start_at: Date;
  end_at: Date;
  checked_in_at: Date | null;
  guest_last_name: string;
  profile_last_name: string | null;
  profile_birth_date: string | null;
}

// A room has one stay at a time, with a few guests; more rows cover stays left checked in past their end.
const EVIDENCE_ROWS = 100;

export const staysRepository = {
  /**
   * Everything a guest's proof is judged on, in one query whatever the room: the hotel's room guests know by
   * `roomKey`, its checked-in stays, and their guests' surnames and birth dates.
   */
  async evidence(db: DbOrTrx, hotelId: string, roomKey: string): Promise<StayEvidence[]> {
    const { rows } = await db.raw<{ rows: StayEvidence[] }>(
      `SELECT r.id AS room_id, b.id AS booking_id, b.status, b.start_at, b.end_at, b.checked_in_at,
              b.guest_last_name, g.last_name AS profile_last_name, g.birth_date AS profile_birth_date
         FROM (SELECT 1) AS one
         LEFT JOIN rooms r ON r.hotel_id = :hotelId AND lower(btrim(r.number)) = :roomKey
         LEFT JOIN bookings b ON b.hotel_id = :hotelId AND b.room_id = r.id AND b.status = 'checked_in'
         LEFT JOIN booking_guests bg ON bg.hotel_id = :hotelId AND bg.booking_id = b.id
         LEFT JOIN guests g ON g.hotel_id = :hotelId AND g.id = bg.guest_id
        LIMIT ${EVIDENCE_ROWS}`,
      { hotelId, roomKey },
    );
    return rows;
  },
};

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
