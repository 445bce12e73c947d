import type { Knex } from 'knex';
import type { BookingAnnouncement } from '../../../workflows/contracts/bookings';
import type { NotificationsService, NotificationType } from '../notifications';
import type { Booking } from './bookings.types';

function describe(booking: Booking): string {
  const stay = booking.check_in ? `${booking.check_in} — ${booking.check_out}` : booking.start_at.toISOString();
  return `${booking.guest_last_name} ${booking.guest_first_name}, ${stay}`;
}

/** The in-app notification an announcement makes, if any. */
function notificationFor(
  booking: Booking,
  announcement: BookingAnnouncement,
): { type: NotificationType; title: string }[] {
  if (announcement.event === 'created') {
    return [
      { type: 'booking_created' as const, title: 'Новое бронирование' },
      ...(booking.guest_blacklisted
        ? [{ type: 'booking_blacklisted_guest' as const, title: 'Бронирование гостя из чёрного списка' }]
        : []),
    ];
  }
  if (announcement.status === 'cancelled' && announcement.reason === 'no_show') {
    return [{ type: 'booking_cancelled_no_show', title: 'Бронирование отменено: гость не заехал' }];
  }
  if (announcement.status === 'checked_out' && announcement.reason === 'auto_checkout') {
    return [{ type: 'booking_auto_checked_out', title: 'Автоматический выезд по истечении срока' }];
  }
  return [];
}

/**
 * The staff's in-app notifications of a booking's creation or status change, in the transaction that makes it (so
 * they are there when its answer is): one per booking and type, whoever asks again (the first version of the booking
 * workflow still announces by an activity, and finds them made).
 */
export async function notifyStaff(
  notifications: Pick<NotificationsService, 'notify'>,
  trx: Knex.Transaction,
  booking: Booking,
  announcement: BookingAnnouncement,
): Promise<number> {
  let made = 0;
  for (const { type, title } of notificationFor(booking, announcement)) {
    const result = await notifications.notify(trx, booking.hotel_id, {
      type,
      title,
      body: describe(booking),
      data: { booking_id: booking.id, room_id: booking.room_id },
      dedupeKey: `${type}:${booking.id}`,
    });
    if (result.created) made += 1;
  }
  return made;
}

/** A move the desk must act on: the guest moved tonight needs a new door card (offered, never issued by itself). */
export async function notifyMoved(
  notifications: Pick<NotificationsService, 'notify'>,
  trx: Knex.Transaction,
  booking: Booking,
  move: { fromRoomId: string; reason: string; now: boolean },
): Promise<void> {
  await notifications.notify(trx, booking.hotel_id, {
    type: 'booking_moved',
    title: move.now ? 'Гость переселён: перевыпустите ключ-карту' : 'Запланировано переселение гостя',
    body: `${describe(booking)}. Причина: ${move.reason}`,
    data: { booking_id: booking.id, room_id: booking.room_id, from_room_id: move.fromRoomId, card_reissue: move.now },
    dedupeKey: `booking_moved:${booking.id}:${booking.updated_at.toISOString()}`,
  });
}

/** A planned move the booking's workflow did not carry out at its time (why: the room or its nights), for the desk. */
/**
 * The stay's nights from the plan's day still name the planned room, so the room the guest is in is free for sale from
 * then: the desk must decide where the guest sleeps (a move from tonight, into the same room or another).
 */
const MOVE_SKIPPED_ACTION = 'Текущий номер гостя с этой ночи за ним не закреплён: переселите гостя с сегодняшнего дня';

export async function notifyMoveSkipped(
  notifications: Pick<NotificationsService, 'notify'>,
  trx: Knex.Transaction,
  booking: Booking,
  skipped: { roomId: string; from: string; why: string },
): Promise<void> {
  await notifications.notify(trx, booking.hotel_id, {
    type: 'booking_moved',
    title: 'Запланированное переселение не выполнено',
    body: `${describe(booking)}. ${skipped.why}. ${MOVE_SKIPPED_ACTION}`,
    data: { booking_id: booking.id, room_id: booking.room_id, planned_room_id: skipped.roomId, card_reissue: false },
    dedupeKey: `booking_move_skipped:${booking.id}:${skipped.from}:${skipped.roomId}`,
  });
}
