import type { Cursor } from '../../platform/db/keyset';
import { inHouse, type BookingsService } from '../bookings';
import type { GuestsService } from '../guests';
import type { RoomsService } from '../rooms';
import { sameSurname, type WifiAuthMethod } from './wifi.rules';
import type { VerifyInput } from './wifi.types';

export interface StayDependencies {
  rooms: Pick<RoomsService, 'listRooms'>;
  bookings: Pick<BookingsService, 'list' | 'get'>;
  guests: Pick<GuestsService, 'find'>;
}

/** A stay the portal may let devices in for: which booking, and when it ends. */
export interface Stay {
  id: string;
  end_at: Date;
}

// A room has one stay at a time; a few more cover stays left checked in past their end.
const STAYS_LOOKED_AT = 20;

export const roomKey = (room: string) => room.trim().toLowerCase();

/** The room guests know by that number; the search also finds numbers containing it, so every page is looked at. */
async function roomNumbered(deps: StayDependencies, hotelId: string, room: string) {
  let cursor: Cursor | undefined;
  do {
    const page = await deps.rooms.listRooms(hotelId, { search: room.trim(), limit: 100, cursor });
    const found = page.items.find((candidate) => roomKey(candidate.number) === roomKey(room));
    if (found) return found;
    cursor = page.next;
  } while (cursor);
  return undefined;
}

/** The stays in that room that are checked in and under way now. */
async function staysInRoom(deps: StayDependencies, hotelId: string, room: string, now: Date) {
  const found = await roomNumbered(deps, hotelId, room);
  if (!found) return [];
  const { items } = await deps.bookings.list(hotelId, {
    status: 'checked_in',
    room_id: found.id,
    limit: STAYS_LOOKED_AT,
  });
  return items.filter((stay) => inHouse(stay, now));
}

/** The guest profiles linked to the booking (the primary guest and companions). */
async function profilesOf(deps: StayDependencies, hotelId: string, bookingId: string) {
  const { guests } = await deps.bookings.get(hotelId, bookingId);
  const profiles = await Promise.all(guests.map(({ guest_id: id }) => deps.guests.find(hotelId, id)));
  return profiles.filter((profile) => profile !== undefined);
}

type StayInRoom = Awaited<ReturnType<typeof staysInRoom>>[number];

/** Whether what the guest typed proves the stay is theirs, as the hotel's method asks. */
async function proves(
  deps: StayDependencies,
  hotelId: string,
  method: WifiAuthMethod,
  stay: StayInRoom,
  input: VerifyInput,
): Promise<boolean> {
  const typedName = input.last_name?.trim() ?? '';
  switch (method) {
    case 'room_only':
      return true;
    case 'room+any':
      return typedName !== '' || input.birth_date !== undefined;
    case 'room+lastname': {
      if (!typedName) return false;
      if (sameSurname(typedName, stay.guest_last_name)) return true;
      const profiles = await profilesOf(deps, hotelId, stay.id);
      return profiles.some((profile) => sameSurname(typedName, profile.last_name));
    }
    case 'room+birthdate': {
      if (!input.birth_date) return false;
      const profiles = await profilesOf(deps, hotelId, stay.id);
      return profiles.some((profile) => profile.birth_date === input.birth_date);
    }
  }
}

/** The stay in that room, checked in now, that what the guest typed proves; undefined for any reason it is not. */
export async function provenStay(
  deps: StayDependencies,
  hotelId: string,
  method: WifiAuthMethod,
  input: VerifyInput,
  now: Date,
): Promise<Stay | undefined> {
  for (const stay of await staysInRoom(deps, hotelId, input.room, now)) {
    if (await proves(deps, hotelId, method, stay, input)) return { id: stay.id, end_at: stay.end_at };
  }
  return undefined;
}
