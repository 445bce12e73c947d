export type { RoomServiceService } from './roomservice.service';
