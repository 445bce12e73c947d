import type { TimelineDependencies } from './timeline.dependencies';
import { BOOKING_WORKFLOW, guest, job, provider, staff } from './timeline.actors';
import { auditActor, bookingChanges } from './timeline.changes';
import type { SourceActor, SourceEntry, TimelineSource } from './timeline.types';

type Source = TimelineSource<TimelineDependencies>;

/** Who made a booking: staff at the desk, the guest through the widget, a channel (OTA) by its provider. */
function creatorOf(booking: { source: string; created_by: string | null }): SourceActor | null {
  if (booking.created_by) return staff(booking.created_by);
  if (booking.source === 'online') return guest;
  if (booking.source === 'ota') return provider('ota');
  return null;
}

/**
 * The status moves the booking keeps: its creation, check-in, check-out and cancellation times, each with who made it
 * as the audit log recorded the move (none for a move older than the log). A move not made has no entry.
 */
const statuses: Source = {
  name: 'statuses',
  async read(deps, request) {
    const { hotelId, bookingId } = request;
    const [booking, logged] = await Promise.all([deps.bookings.get(hotelId, bookingId), bookingChanges(deps, request)]);
    const moverOf = (status: string) => {
      const move = logged.findLast((entry) => entry.action === 'update' && entry.after?.status === status);
      return move ? auditActor(move.actor) : null;
    };
    const moves: [Date | null, string, string][] = [
      [booking.checked_in_at, 'checked_in', 'Checked in'],
      [booking.checked_out_at, 'checked_out', 'Checked out'],
      [booking.cancelled_at, 'cancelled', `Cancelled${booking.cancel_reason ? `: ${booking.cancel_reason}` : ''}`],
    ];
    return [
      { at: booking.created_at, kind: 'created', summary: `Booked (${booking.source})`, actor: creatorOf(booking) },
      ...moves
        .filter(([at]) => at !== null)
        .map(([at, kind, summary]) => ({ at: at!, kind, summary, actor: moverOf(kind) })),
    ];
  },
};

const guestEmails: Source = {
  name: 'guest_emails',
  async read({ bookings }, { hotelId, bookingId }) {
    return (await bookings.guestEmailsSent(hotelId, bookingId)).map(({ kind, sent_at }) => ({
      at: sent_at,
      kind: 'guest_email',
      summary: `E-mail to the guest: ${kind}`,
      actor: BOOKING_WORKFLOW,
    }));
  },
};

const tvPushes: Source = {
  name: 'tv_pushes',
  async read({ tv }, { hotelId, bookingId, limit }) {
    return (await tv.logOfBooking(hotelId, bookingId, limit)).map((push) => ({
      at: push.created_at,
      kind: 'tv_push',
      summary: `${push.event}: ${push.status}${push.detail ? ` (${push.detail})` : ''}`,
      actor: BOOKING_WORKFLOW,
    }));
  },
};

const cards: Source = {
  name: 'cards',
  async read({ cards }, { hotelId, bookingId, limit }) {
    return (await cards.forBooking(hotelId, bookingId)).slice(-limit).flatMap((card): SourceEntry[] => [
      { at: card.created_at, kind: 'card', summary: `Card ${card.status}`, actor: staff(card.issued_by) },
      ...(card.cancelled_at
        ? [
            {
              at: card.cancelled_at,
              kind: 'card_cancelled',
              summary: 'Card cancelled',
              actor: staff(card.cancelled_by),
            },
          ]
        : []),
    ]);
  },
};

const roomService: Source = {
  name: 'room_service',
  async read({ roomservice }, { hotelId, bookingId, limit }) {
    const { items } = await roomservice.orders.list(hotelId, { booking_id: bookingId, limit });
    return items.flatMap((order): SourceEntry[] => [
      {
        at: order.created_at,
        kind: 'room_service_order',
        summary: `Order №${order.number}, ${order.total}`,
        actor: null,
      },
      ...(order.delivered_at
        ? [{ at: order.delivered_at, kind: 'room_service_delivered', summary: `Order №${order.number}`, actor: null }]
        : []),
      ...(order.cancelled_at
        ? [{ at: order.cancelled_at, kind: 'room_service_cancelled', summary: `Order №${order.number}`, actor: null }]
        : []),
    ]);
  },
};

const notifications: Source = {
  name: 'notifications',
  async read({ notifications }, { hotelId, bookingId, limit }) {
    return (await notifications.aboutBooking(hotelId, bookingId, limit)).map((notification) => ({
      at: notification.created_at,
      kind: 'notification',
      summary: notification.title,
      actor: null,
    }));
  },
};

const review: Source = {
  name: 'review',
  async read({ reviews }, { hotelId, bookingId }) {
    const { invitation, review } = await reviews.ofBooking(hotelId, bookingId);
    const entries: SourceEntry[] = [];
    if (invitation?.sent_at)
      entries.push({
        at: invitation.sent_at,
        kind: 'review_invitation',
        summary: 'Review invitation sent',
        actor: BOOKING_WORKFLOW,
      });
    if (review) {
      entries.push({ at: review.created_at, kind: 'review', summary: `Review: ${review.overall}/5`, actor: guest });
      if (review.replied_at)
        entries.push({
          at: review.replied_at,
          kind: 'review_reply',
          summary: 'The hotel replied',
          actor: staff(review.replied_by),
        });
    }
    return entries;
  },
};

const loyalty: Source = {
  name: 'loyalty',
  async read({ loyalty }, { hotelId, bookingId, limit }) {
    return (await loyalty.entriesOfBooking(hotelId, bookingId, limit)).map((entry) => ({
      at: entry.created_at,
      kind: 'loyalty',
      summary: `${entry.points > 0 ? '+' : ''}${entry.points} points (${entry.reason})`,
      actor: entry.created_by ? staff(entry.created_by) : job('bookingLife'),
    }));
  },
};

export const STAY_SOURCES = [statuses, guestEmails, tvPushes, cards, roomService, notifications, review, loyalty];
