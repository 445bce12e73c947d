import type { Role } from '../../platform/http/roles';

export const ROOM_TYPES = ['direct', 'group', 'notifications'] as const;
export type RoomType = (typeof ROOM_TYPES)[number];

export interface RoomRow {
  id: string;
  hotel_id: string;
  type: RoomType;
  name: string | null;
  direct_key: string | null;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
}

/** A room as one member of staff sees it in the list. */
export interface RoomView {
  id: string;
  type: RoomType;
  name: string | null;
  created_by: string | null;
  member_ids: string[];
  created_at: Date;
  updated_at: Date;
  last_message_at: Date | null;
  last_read_at: Date | null;
  unread_count: number;
}

export interface MessageRow {
  id: string;
  hotel_id: string;
  room_id: string;
  sender_id: string | null;
  is_system: boolean;
  text: string | null;
  attachment_url: string | null;
  created_at: Date;
  edited_at: Date | null;
  deleted_at: Date | null;
}

export interface ReactionSummary {
  emoji: string;
  count: number;
  user_ids: string[];
}

export interface MessageView extends Omit<MessageRow, 'hotel_id'> {
  reactions: ReactionSummary[];
}

/** Who is asking: their id and role decide which rooms they see and what they may change. */
export interface Actor {
  userId: string;
  role: Role;
}

export interface HistoryQuery {
  before?: Date;
  before_id?: string;
}

export interface NewMessage {
  text?: string;
  attachment_url?: string;
}

export interface NewRoom {
  type: 'direct' | 'group';
  name?: string;
  member_ids: string[];
}

/** A member's running notification of a room (`chat_notices`): what it says and the newest message it covers. */
export interface NoticeRow {
  hotel_id: string;
  room_id: string;
  user_id: string;
  notification_id: string;
  messages: number;
  told_through: Date;
}
