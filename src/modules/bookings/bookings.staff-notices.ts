import type { Knex } from 'knex';
import type { BookingAnnouncement } from '../../../workflows/contracts/bookings';
import type { NotificationsService, NotificationType } from '../notifications';
import type { Room } from '../rooms';
import type { Segment } from './bookings.segments-repository';
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

/**
 * The guest's own room when a planned move is not carried out: kept for them from the plan's day; or not: held by
 * another stay (the exclusion constraint, or a stay that used it in the time already past), unable to take them
 * either (closed, under maintenance), or refused by what blocks hold.
 */
export type OwnRoom = { room: Room } & (
  | { outcome: 'kept'; rooms: Segment[] }
  | { outcome: 'taken'; by: Booking | undefined }
  | { outcome: 'unusable' | 'refused'; reason: string }
);

/** A planned move the booking's workflow did not carry out at its time: why, and where the guest sleeps. */
export interface SkippedMove {
  /** The planned room, and the night the plan moved the guest into it. */
  roomId: string;
  from: string;
  why: string;
  /** The guest's own room, when the planned one could not take them (none: its nights over, or begun before today). */
  own?: OwnRoom;
}

/** What the guest's own room says of their nights from the plan's day, when it was not kept for them. */
function ownRoomRefused(own: Exclude<OwnRoom, { outcome: 'kept' }>, from: string): string {
  const room = `Номер ${own.room.number}, где живёт гость, с ${from}`;
  if (own.outcome === 'taken')
    return `${room} уже занят (${own.by ? `бронирование ${describe(own.by)}` : 'другое бронирование'})`;
  if (own.outcome === 'unusable') return `${room} тоже не может его принять (${own.reason})`;
  return `${room} не удалось закрепить за ним (${own.reason})`;
}

/**
 * The desk's next step: none when the guest's room was kept for them; otherwise the stay's nights from the plan's day
 * still name the planned room, so the room the guest is in is not theirs from then: the desk must decide where the
 * guest sleeps (a move from tonight, into the same room or another).
 */
function skippedAction({ from, own }: SkippedMove): { title: string; action: string } {
  const title = 'Запланированное переселение не выполнено';
  const moveThem = 'переселите гостя с сегодняшнего дня';
  if (!own) return { title, action: `Текущий номер гостя с этой ночи за ним не закреплён: ${moveThem}` };
  if (own.outcome === 'kept')
    return {
      title: `${title}: гость остаётся в номере ${own.room.number}`,
      action: `Гость остаётся в номере ${own.room.number}: ночи с ${from} закреплены за ним, запланированный номер освобождён`,
    };
  return { title, action: `${ownRoomRefused(own, from)}: ${moveThem}` };
}

/**
 * The notice of a skipped plan, once per plan and outcome: a later attempt (the plan signalled again, a retry) whose
 * outcome differs, such as the guest's room kept once freed, tells the desk anew.
 */
export async function notifyMoveSkipped(
  notifications: Pick<NotificationsService, 'notify'>,
  trx: Knex.Transaction,
  booking: Booking,
  skipped: SkippedMove,
): Promise<void> {
  const { title, action } = skippedAction(skipped);
  const outcome = skipped.own?.outcome ?? 'none';
  await notifications.notify(trx, booking.hotel_id, {
    type: 'booking_moved',
    title,
    body: `${describe(booking)}. ${skipped.why}. ${action}`,
    data: {
      booking_id: booking.id,
      room_id: booking.room_id,
      planned_room_id: skipped.roomId,
      room_kept: outcome === 'kept',
      card_reissue: false,
    },
    dedupeKey: `booking_move_skipped:${booking.id}:${skipped.from}:${skipped.roomId}:${outcome}`,
  });
}
