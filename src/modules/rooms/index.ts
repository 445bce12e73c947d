export type { RoomsService } from './rooms.service';
export type { Room, RoomCategory, RoomStatus } from './rooms.types';
export type { RoomStateChange } from './rooms.state';
export { ROOM_STATUSES } from './rooms.types';
