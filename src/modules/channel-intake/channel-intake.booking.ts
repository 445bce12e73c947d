import { formatMoney, parseMoney } from '../../platform/money';
import type { BookingInput } from '../bookings';
import type { ChannelRevision, RevisionRoom } from '../channels';
import type { IntakeMapping, UnplacedReason } from './channel-intake.types';

/** The stay a revision asks for, in our terms, or why it cannot be placed. */
export type Placement =
  | { ok: true; categoryId: string | undefined; input: BookingInput; from: string; to: string }
  | { ok: false; reason: UnplacedReason; from: string | null; to: string | null };

/** The room's price: the sum of its nights, or its total when the channel gave no nights. */
function priceOf(room: RevisionRoom): string {
  const nights = Object.values(room.nights);
  if (nights.length === 0) return room.amount ?? '0';
  return formatMoney(nights.reduce((sum, price) => sum + parseMoney(price), 0n));
}

/** What the staff read on the booking: the OTA and its code, who collects the payment, the price of each night. */
export function channelNotes(revision: ChannelRevision, room: RevisionRoom, index?: number): string {
  const collect = revision.paymentCollect === 'ota' ? 'OTA' : 'отель';
  const nights = Object.entries(room.nights)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([night, price]) => `${night}: ${price}`)
    .join(', ');
  const lines = [
    `${revision.otaName} · ${revision.otaReservationCode}${index === undefined ? '' : ` · номер ${index + 1} из ${revision.rooms.length}`}`,
    `Оплату получает: ${collect}${revision.currency ? ` (${revision.currency})` : ''}`,
    nights && `По ночам: ${nights}`,
    revision.notes && `Комментарий: ${revision.notes}`,
  ];
  return lines.filter(Boolean).join('\n').slice(0, 2000);
}

/**
 * The booking a revision makes (or the changes it asks of one), in our categories and tariffs: in any free room of
 * its room type's category, or in the room the staff name (an unplaced booking they place).
 */
export function placementOf(revision: ChannelRevision, mapping: IntakeMapping, roomId?: string): Placement {
  const [room, ...others] = revision.rooms;
  if (!room) return { ok: false, reason: 'refused', from: null, to: null };
  if (others.length > 0) return { ok: false, reason: 'several_rooms', from: room.checkIn, to: room.checkOut };
  return roomPlacementOf(revision, mapping, 0, roomId);
}

/** The booking one room of a revision makes (its place in it `index`): placed by intake, one booking per room. */
export function roomPlacementOf(
  revision: ChannelRevision,
  mapping: IntakeMapping,
  index: number,
  roomId?: string,
): Placement {
  const room = revision.rooms[index];
  const dates = { from: room.checkIn, to: room.checkOut };
  const categoryId = mapping.categoryOf(room.roomTypeId);
  if (!categoryId && !roomId) return { ok: false, reason: 'unmapped_room_type', ...dates };
  const { customer } = revision;
  const input: BookingInput = {
    ...(roomId ? { room_id: roomId } : { category_id: categoryId, unattended_strategy: 'spread' }),
    check_in: room.checkIn,
    check_out: room.checkOut,
    status: 'confirmed',
    source: 'ota',
    guest_last_name: (customer.surname || customer.name || revision.otaName || 'OTA').slice(0, 100),
    guest_first_name: (customer.surname ? customer.name : '').slice(0, 100) || '—',
    guest_phone: customer.phone,
    guest_email: customer.mail,
    guests_count: Math.max(1, room.adults + room.children),
    tariff_id: (room.ratePlanId && mapping.tariffOf(room.ratePlanId)) || null,
    price: priceOf(room),
    notes: channelNotes(revision, room, revision.rooms.length > 1 ? index : undefined),
    // The channel sold the stay on what we pushed: a restriction set since is recorded on it, not a reason to drop it.
    override_restrictions: true,
  };
  return { ok: true, categoryId, input, ...dates };
}
