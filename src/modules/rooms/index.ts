export { createRoomsService, type RoomsService } from './rooms.service';
export { roomsRoutes } from './rooms.routes';
export { categoriesRepository, roomsRepository } from './rooms.repository';
export type { Room, RoomCategory, RoomStatus } from './rooms.types';
