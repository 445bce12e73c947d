import type { HeldUnits } from '../pricing';
import type { StayDates } from '../restrictions';
import { leftAfterHolds, widened, type Offerings } from './bookings.availability';
import type { Inventory } from './bookings.inventory';

/**
 * For the quotes (pricing counts no rooms): whether the units blocks hold leave the stay's category a room on each
 * night they hold, for the stay and its shifts, by the staff availability's own count (`leftAfterHolds`). Read once per
 * inventory version and window: every change of what blocks hold, or of the stays picking it up, moves the version.
 */
export function createHeldUnits(inventory: Inventory, { holds, db }: Pick<Offerings, 'holds' | 'db'>): HeldUnits {
  return async (hotelId, stay) => {
    const { first, count } = widened(stay);
    const snapshot = await inventory.snapshot(hotelId);
    const held = (await snapshot.derive(`held:${first}:${count}`, () => holds.held(db, hotelId, first, count))).get(
      stay.category_id,
    );
    if (!held) return () => true;
    const rooms = (await snapshot.nights(first, count)).filter((room) => room.category_id === stay.category_id);
    return (dates: StayDates) => leftAfterHolds(rooms, held, first, dates);
  };
}
