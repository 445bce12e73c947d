import type { DbOrTrx } from '../../platform/db/knex';
import { roomUpdated } from './rooms.events';
import { roomsRepository } from './rooms.repository';
import type { Room, RoomInput } from './rooms.types';

export type RoomStateChange = Pick<RoomInput, 'status' | 'maintenance_from' | 'maintenance_to'>;

/** Changes what the room board shows and tells the hotel's staff, in the caller's transaction. */
export async function updateRoomState(
  conn: DbOrTrx,
  hotelId: string,
  roomId: string,
  change: RoomStateChange,
): Promise<Room> {
  const room = await roomsRepository.update(conn, hotelId, roomId, change);
  await publishRoomUpdated(conn, room!);
  return room!;
}

export function publishRoomUpdated(conn: DbOrTrx, room: Room): Promise<void> {
  return roomUpdated.publish(conn, room.hotel_id, {
    room_id: room.id,
    status: room.status,
    maintenance_from: room.maintenance_from,
    maintenance_to: room.maintenance_to,
  });
}
