import type { Knex } from 'knex';
import { databaseError, PG_ERRORS } from '../../platform/db/base-model';
import type { DbOrTrx } from '../../platform/db/knex';
import { ConflictError } from '../../platform/errors';
import type { Room } from '../rooms';
import { bookingMessages } from './bookings.present';
import type { BookingsRepository, Span } from './bookings.repository';
import type { SegmentInput } from './bookings.segments-repository';
import type { Booking } from './bookings.types';

/**
 * The room is held by another booking in the span: raised inside the transaction (which the exclusion violation
 * has aborted), named with the clashing booking once it is rolled back.
 */
class RoomTaken extends Error {
  constructor(
    readonly hotelId: string,
    /** Where it may have clashed: rooms over a span (a split stay's segments, each on its own). */
    readonly places: { roomIds: string[]; span: Span }[],
    readonly exceptId?: string,
    /** The booking's own rooms may be where it clashed too (a change of its dates stretches its segments). */
    readonly inOwnRooms = false,
  ) {
    super('room taken');
  }
}

/** The guest a new stay is linked to as its primary one, in the statement that writes it. */
export interface PrimaryGuest {
  primaryGuestId: string;
}

/** The segments' (or an older) exclusion constraint refused a write: a night held by another stay. */
export function exclusionViolation(error: unknown): boolean {
  return databaseError(error).code === PG_ERRORS.exclusionViolation;
}

/** Writing a stay into a room the exclusion constraint may find taken, and the 409 that names the other booking. */
export function createRoomWrites(repository: {
  db: DbOrTrx;
  bookings: Pick<BookingsRepository['bookings'], 'insert' | 'update' | 'clashes'>;
  segments: Pick<BookingsRepository['segments'], 'of' | 'replace'>;
}) {
  const { bookings, segments } = repository;

  /** The rooms a refused write may have clashed in: those it named, and those the booking occupies already. */
  async function roomsOf(error: RoomTaken, roomIds: string[]): Promise<string[]> {
    if (!error.exceptId || !error.inOwnRooms) return roomIds;
    const held = await segments.of(repository.db, error.hotelId, [error.exceptId]);
    return [...new Set([...roomIds, ...held.map((segment) => segment.room_id)])];
  }

  /** The first booking found holding one of the places the refused write wanted. */
  async function clashOf(error: RoomTaken) {
    for (const place of error.places) {
      const rooms = await roomsOf(error, place.roomIds);
      const [clash] = await bookings.clashes(repository.db, error.hotelId, rooms, place.span, error.exceptId);
      if (clash) return clash;
    }
    return undefined;
  }

  return {
    /** One room: the stay is written or the room is taken (RoomTaken, after which the transaction is unusable). */
    async insertInto(trx: Knex.Transaction, hotelId: string, row: Partial<Booking>, span: Span, link?: PrimaryGuest) {
      try {
        return await bookings.insert(trx, hotelId, row, link?.primaryGuestId);
      } catch (error) {
        if (exclusionViolation(error)) throw new RoomTaken(hotelId, [{ roomIds: [row.room_id!], span }]);
        throw error;
      }
    },

    /** One of several rooms: each try in a savepoint, so a room taken meanwhile moves on to the next candidate. */
    async insertIntoAny(
      trx: Knex.Transaction,
      hotelId: string,
      row: Partial<Booking>,
      candidates: Room[],
      link?: PrimaryGuest,
    ) {
      for (const room of candidates) {
        try {
          const created = await trx.transaction((savepoint) =>
            bookings.insert(savepoint, hotelId, { ...row, room_id: room.id }, link?.primaryGuestId),
          );
          return { created, room };
        } catch (error) {
          if (!exclusionViolation(error)) throw error;
        }
      }
      throw new ConflictError(bookingMessages.noFreeRoom, 'no_free_room');
    },

    /** The booking changed as `fields` say, or RoomTaken when its room or span now clashes with another booking. */
    async updateIn(trx: Knex.Transaction, booking: Booking, fields: Partial<Booking>) {
      try {
        return await bookings.update(trx, booking.hotel_id, booking.id, fields);
      } catch (error) {
        if (!exclusionViolation(error)) throw error;
        const span = { start: fields.start_at ?? booking.start_at, end: fields.end_at ?? booking.end_at };
        throw new RoomTaken(
          booking.hotel_id,
          [{ roomIds: [fields.room_id ?? booking.room_id], span }],
          booking.id,
          true,
        );
      }
    },

    /** The booking's segments rewritten by a move, or RoomTaken when the new room's nights are held by another stay. */
    async replaceSegments(
      trx: Knex.Transaction,
      booking: Booking,
      written: SegmentInput[],
      /** The segments taking nights the booking did not hold: where a clash is looked for. */
      taking: SegmentInput[],
    ) {
      try {
        await segments.replace(trx, booking.hotel_id, booking.id, written);
      } catch (error) {
        if (!exclusionViolation(error)) throw error;
        const places = taking.map(({ room_id, start, end }) => ({ roomIds: [room_id], span: { start, end } }));
        throw new RoomTaken(booking.hotel_id, places, booking.id);
      }
    },

    /** A room taken by another booking is a 409 that names it (read once the refused transaction is rolled back). */
    async namingClashes<T>(work: () => Promise<T>): Promise<T> {
      try {
        return await work();
      } catch (error) {
        if (error instanceof RoomTaken) {
          const clash = await clashOf(error);
          throw new ConflictError(clash ? bookingMessages.clash(clash) : bookingMessages.roomTaken, 'room_taken');
        }
        if (exclusionViolation(error)) throw new ConflictError(bookingMessages.roomTaken, 'room_taken');
        throw error;
      }
    },
  };
}
