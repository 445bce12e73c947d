import type { AccessTokenPayload } from './access-token';
import type { HotelRef } from './route';

/** A hotel that does not exist and another hotel get the same refusal, so slugs cannot be probed. */
export const foreignHotelMessage = 'Нет доступа к этому отелю';

/** The tenant rule shared by HTTP routes and the realtime channel: one's own hotel, or any for super_admin. */
export function mayAccessHotel(auth: AccessTokenPayload, hotel: HotelRef | undefined): hotel is HotelRef {
  return hotel !== undefined && (auth.role === 'super_admin' || hotel.id === auth.hotelId);
}
