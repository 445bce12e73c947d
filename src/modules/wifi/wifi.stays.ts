import { inHouse } from '../bookings';
import type { StayEvidence } from './wifi.repository';
import { sameSurname, type WifiAuthMethod } from './wifi.rules';
import type { VerifyInput } from './wifi.types';

/** A stay the portal may let devices in for: which booking, and when it ends. */
export interface Stay {
  id: string;
  end_at: Date;
}

export const roomKey = (room: string) => room.trim().toLowerCase();

/** What the guest typed against one stay's names and birth dates (its own, its guests' profiles'). */
function proves(method: WifiAuthMethod, input: VerifyInput, names: string[], birthDates: string[]): boolean {
  const typedName = input.last_name?.trim() ?? '';
  switch (method) {
    case 'room_only':
      return true;
    case 'room+any':
      return typedName !== '' || input.birth_date !== undefined;
    case 'room+lastname':
      // Every name is compared (no early way out), so a room with more guests is not the slower refusal by much.
      return names.reduce((proven, name) => sameSurname(typedName, name) || proven, false);
    case 'room+birthdate':
      return birthDates.reduce(
        (proven, date) => (input.birth_date !== undefined && date === input.birth_date) || proven,
        false,
      );
  }
}

/**
 * The stay in the room, checked in and in house now, that what the guest typed proves; undefined for any reason it is
 * not. Judged on what one query read (`evidence`), so an unknown room, an empty one and a wrong surname differ by a few
 * string comparisons, not by queries.
 */
export function provenStay(
  evidence: StayEvidence[],
  method: WifiAuthMethod,
  input: VerifyInput,
  now: Date,
): Stay | undefined {
  const stays = new Map<string, { stay: StayEvidence; names: string[]; birthDates: string[] }>();
  for (const row of evidence) {
    if (row.booking_id === null || !inHouse(row, now)) continue;
    const entry = stays.get(row.booking_id) ?? { stay: row, names: [row.guest_last_name], birthDates: [] };
    if (row.profile_last_name !== null) entry.names.push(row.profile_last_name);
    if (row.profile_birth_date !== null) entry.birthDates.push(row.profile_birth_date);
    stays.set(row.booking_id, entry);
  }
  const proven = [...stays.values()].find(({ names, birthDates }) => proves(method, input, names, birthDates));
  return proven && { id: proven.stay.booking_id!, end_at: proven.stay.end_at };
}
