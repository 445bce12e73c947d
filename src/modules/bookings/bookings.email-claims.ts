import type { Db } from '../../platform/db/knex';
import { sentMailClaims } from '../../platform/db/mail-claims';
import type { GuestEmailKind } from '../../../workflows/contracts/bookings';
import type { Booking } from './bookings.types';

/** The claim of a guest's e-mail: one per booking and kind (migration 089 moved the older claims to this key). */
export const guestEmailClaim = (booking: Pick<Booking, 'hotel_id' | 'id'>, kind: GuestEmailKind) =>
  `guest-email:${booking.hotel_id}:${booking.id}:${kind}`;

const GUEST_EMAIL_KINDS: readonly GuestEmailKind[] = ['received', 'confirmed', 'cancelled'];

/** The guest's booking e-mails sent and when (their claims are kept 30 days after sending). */
export async function sentGuestEmails(db: Db, hotelId: string, bookingId: string) {
  const keys = new Map(
    GUEST_EMAIL_KINDS.map((kind) => [guestEmailClaim({ hotel_id: hotelId, id: bookingId }, kind), kind]),
  );
  const sent = await sentMailClaims(db, [...keys.keys()]);
  return sent.map(({ key, sent_at }) => ({ kind: keys.get(key)!, sent_at }));
}
