import { HOTEL_MANAGEMENT, type Role } from '../../platform/http/roles';
import type { Actor, RoomRow } from './chat.types';

/** A history page: more may exist exactly when a page comes back full. */
export const HISTORY_PAGE_SIZE = 50;
export const MAX_TEXT_LENGTH = 4000;
export const MAX_ROOM_NAME_LENGTH = 100;
export const MAX_EMOJI_LENGTH = 16;
export const MAX_SEARCH_LENGTH = 200;
export const SEARCH_PAGE_SIZE = 50;
export const MAX_MEMBERS_PER_CHANGE = 100;
/** Clients beat every 30 s; two missed beats (and a little slack for the network) make a user offline. */
export const PRESENCE_INTERVAL_SECONDS = 30;
export const PRESENCE_TTL_SECONDS = 2 * PRESENCE_INTERVAL_SECONDS + 10;

/** The hotel's owner (and the platform's operators) write in every room of the hotel. */
export function isChatAdmin(role: Role): boolean {
  return role === 'hotel_admin' || role === 'super_admin';
}

/** The one key of a direct room: the sorted pair, so (a, b) and (b, a) are the same room. */
export function directKey(a: string, b: string): string {
  return [a, b].sort().join(':');
}

/**
 * Whether the actor sees the room at all (reads its history, gets its events): members do, everyone reads the
 * notifications room, and the hotel's owner sees every room. Anyone else is told it does not exist.
 */
export function maySee(room: Pick<RoomRow, 'type'>, actor: Actor, isMember: boolean): boolean {
  return room.type === 'notifications' || isMember || isChatAdmin(actor.role);
}

/** Posting: members in their rooms, the owner anywhere; the notifications room takes the owner's words only. */
export function mayPost(room: Pick<RoomRow, 'type'>, actor: Actor, isMember: boolean): boolean {
  if (isChatAdmin(actor.role)) return true;
  return room.type !== 'notifications' && isMember;
}

/** A group's name and members: its creator, the managers and the owner (of those who see it). */
export function mayManage(room: Pick<RoomRow, 'created_by'>, actor: Actor): boolean {
  return room.created_by === actor.userId || HOTEL_MANAGEMENT.includes(actor.role) || isChatAdmin(actor.role);
}

/** A soft delete: the author, or the hotel's owner. */
export function mayDeleteMessage(senderId: string | null, actor: Actor): boolean {
  return senderId === actor.userId || isChatAdmin(actor.role);
}

/** An attachment is a file of the `chat` folder: `<cdn>/chat/<uuid>.<ext>` (its ownership is checked apart). */
export function isChatUploadUrl(url: string): boolean {
  try {
    return /\/chat\/[^/]+$/.test(new URL(url).pathname);
  } catch {
    return false;
  }
}

/** The members of a new room besides its creator, without repeats. */
export function otherMembers(creatorId: string, memberIds: readonly string[]): string[] {
  return [...new Set(memberIds)].filter((id) => id !== creatorId);
}

/** The Russian plural form for `n`: one (1, 21), few (2–4, 22–24), many (0, 5–20, 11–14...). */
export function plural(n: number, one: string, few: string, many: string): string {
  const [tens, units] = [n % 100, n % 10];
  if (tens >= 11 && tens <= 14) return many;
  if (units === 1) return one;
  return units >= 2 && units <= 4 ? few : many;
}
