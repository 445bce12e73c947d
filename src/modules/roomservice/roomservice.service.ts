import type { Db } from '../../platform/db/knex';

export function createRoomServiceService(db: Db) {
  return { db };
}

export type RoomServiceService = ReturnType<typeof createRoomServiceService>;
