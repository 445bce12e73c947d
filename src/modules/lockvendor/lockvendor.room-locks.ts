import { refusalsAs } from '../../platform/db/base-model';
import type { PageRequest } from '../../platform/db/keyset';
import type { Db, DbOrTrx } from '../../platform/db/knex';
import { ConflictError, NotFoundError, ValidationError } from '../../platform/errors';
import type { RoomsService } from '../rooms';
import { lockMessages } from './lockvendor.messages';
import { roomLocksRepository } from './lockvendor.repository';
import type { RoomLock, RoomLockInput } from './lockvendor.types';

export type RoomFinder = Pick<RoomsService, 'findRoom'>;

const notFound = () => new NotFoundError(lockMessages.roomLockNotFound);

/** Which lock is on which room's door: one row per lock (by MAC) and hotel, at most one lock per room. */
export function createRoomLocks(db: Db, rooms: RoomFinder) {
  async function assertOwnRoom(hotelId: string, roomId: string | null): Promise<void> {
    if (roomId && !(await rooms.findRoom(hotelId, roomId))) {
      throw new ValidationError(lockMessages.roomNotFound, [
        { path: 'body.room_id', message: lockMessages.roomNotFound },
      ]);
    }
  }

  const conflictsAsErrors = <T>(write: () => Promise<T>) =>
    refusalsAs(
      {
        unique: { room_locks_hotel_id_room_id_unique: () => new ConflictError(lockMessages.roomTaken) },
        check: { room_locks_values_check: () => new ValidationError(lockMessages.outOfBounds) },
      },
      write,
    );

  return {
    list: (hotelId: string, page: PageRequest) => roomLocksRepository.list(db, hotelId, page),

    /** The lock on a room's door, within the caller's transaction when given; undefined when the room has none. */
    ofRoom: (hotelId: string, roomId: string, conn: DbOrTrx = db): Promise<RoomLock | undefined> =>
      roomLocksRepository.ofRoom(conn, hotelId, roomId),

    /** Maps the lock of that MAC (created, or changed when the hotel has it); `created` tells which. */
    async upsert(hotelId: string, input: RoomLockInput): Promise<{ roomLock: RoomLock; created: boolean }> {
      await assertOwnRoom(hotelId, input.room_id);
      const { created, ...roomLock } = await conflictsAsErrors(() => roomLocksRepository.upsert(db, hotelId, input));
      return { roomLock, created };
    },

    async remove(hotelId: string, id: string): Promise<void> {
      if (!(await roomLocksRepository.delete(db, hotelId, id))) throw notFound();
    },

    async removeByMac(hotelId: string, mac: string): Promise<void> {
      if (!(await roomLocksRepository.deleteByMac(db, hotelId, mac))) throw notFound();
    },
  };
}
