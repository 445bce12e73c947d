export type { ChatService } from './chat.service';
export { postSystemMessage } from './chat.service';
export type { MessageView, RoomView, RoomType } from './chat.types';
