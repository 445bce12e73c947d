export { createRoomsService, type RoomsService } from './rooms.service';
export { roomsRoutes } from './rooms.routes';
export { categoriesRepository, roomsRepository } from './rooms.repository';
export type { Room, RoomCategory, RoomStatus } from './rooms.types';
export { updateRoomState, type RoomStateChange } from './rooms.state';
export { ROOM_STATUSES } from './rooms.types';
