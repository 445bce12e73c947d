export type { RoomServiceService } from './roomservice.service';
export type { Order, OrderStatus } from './roomservice.types';
