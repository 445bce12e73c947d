import type { DbOrTrx } from '../../platform/db/knex';

/** A stretch of a stay in one room (`booking_rooms`, migration 94): the rooms a moved stay occupies, in time order. */
export interface Segment {
  booking_id: string;
  room_id: string;
  start_at: Date;
  end_at: Date;
  /** The hotel-local days the segment starts and ends on (a nightly stay's first night and its check-out day). */
  from: string;
  to: string;
}

/** A segment to write: a room from `start` to `end`. */
export interface SegmentInput {
  room_id: string;
  start: Date;
  end: Date;
}

/** The segments of stays: read for their answers and for a move, and written by a move (the trigger keeps the rest). */
export const segmentsRepository = {
  /** The segments of these bookings, each booking's in time order. */
  async of(db: DbOrTrx, hotelId: string, bookingIds: string[]): Promise<Segment[]> {
    if (bookingIds.length === 0) return [];
    const { rows } = await db.raw<{ rows: Segment[] }>(
      `SELECT s.booking_id, s.room_id, lower(s.during) AS start_at, upper(s.during) AS end_at,
              to_char(lower(s.during) AT TIME ZONE h.timezone, 'YYYY-MM-DD') AS "from",
              to_char(upper(s.during) AT TIME ZONE h.timezone, 'YYYY-MM-DD') AS "to"
       FROM booking_rooms s JOIN hotels h ON h.id = s.hotel_id
       WHERE s.hotel_id = ? AND s.booking_id = ANY(?::uuid[])
       ORDER BY s.booking_id, lower(s.during)`,
      [hotelId, bookingIds],
    );
    return rows;
  },

  /**
   * The booking's segments replaced by these (in its transaction, the booking locked): an exclusion violation
   * (23P01) when a night of them is held by another stay.
   */
  async replace(db: DbOrTrx, hotelId: string, bookingId: string, segments: SegmentInput[]): Promise<void> {
    await db('booking_rooms').where({ hotel_id: hotelId, booking_id: bookingId }).delete();
    await db('booking_rooms').insert(
      segments.map((segment) => ({
        hotel_id: hotelId,
        booking_id: bookingId,
        room_id: segment.room_id,
        during: db.raw("tstzrange(?, ?, '[)')", [segment.start, segment.end]),
        active: true,
      })),
    );
  },
};
