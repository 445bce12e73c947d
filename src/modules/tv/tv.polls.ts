import type { BookingsService } from '../bookings';
import type { Cursor } from '../../platform/db/keyset';
import type { TvReservation, TvSettingsRow } from './tv.types';

export type StaysReader = Pick<BookingsService, 'list'>;

/** A hotel's whole house in a few pages; a stay list longer than this is not a hotel's. */
const PAGE = 500;
const MAX_PAGES = 20;

/** The stays in house now whose room the TV system knows, as it reads them. */
export async function reservationsOf(bookings: StaysReader, settings: TvSettingsRow): Promise<TvReservation[]> {
  const mapping = settings.netup_room_number;
  const reservations: TvReservation[] = [];
  let cursor: Cursor | undefined;
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const { items, next } = await bookings.list(settings.hotel_id, { status: 'checked_in', limit: PAGE, cursor });
    for (const booking of items) {
      const room = mapping[booking.room_id];
      if (!room) continue;
      reservations.push({
        room,
        guest_name: `${booking.guest_first_name} ${booking.guest_last_name}`.trim(),
        language: settings.default_language,
        arrival: booking.start_at.toISOString(),
        departure: booking.end_at.toISOString(),
      });
    }
    if (!next) break;
    cursor = next;
  }
  return reservations;
}
