import type { TimelineDependencies } from './timeline.dependencies';
import { BOOKING_WORKFLOW, guest, job, provider, staff } from './timeline.actors';
import { auditActor } from './timeline.changes';
import { readOf, type SourceActor, type SourceEntry, type TimelineSource } from './timeline.types';

type Source = TimelineSource<TimelineDependencies>;

/** Who made a booking: staff at the desk, the guest through the widget, a channel (OTA) by its provider. */
function creatorOf(booking: { source: string; created_by: string | null }): SourceActor | null {
  if (booking.created_by) return staff(booking.created_by);
  if (booking.source === 'online') return guest;
  if (booking.source === 'ota') return provider('ota');
  return null;
}

const MOVE_SUMMARIES: Record<string, string> = {
  inquiry: 'Back to inquiry',
  confirmed: 'Confirmed',
  checked_in: 'Checked in',
  checked_out: 'Checked out',
  cancelled: 'Cancelled',
};
const moveSummary = (status: string, reason: unknown) =>
  `${MOVE_SUMMARIES[status] ?? `Status: ${status}`}${status === 'cancelled' && reason ? `: ${String(reason)}` : ''}`;

/**
 * Its creation, then every status move the audit log recorded (read directly: the booking's entries that wrote its
 * status), each with who made it. A move older than the log is told by the times the booking keeps (check-in,
 * check-out, cancellation), without an actor.
 */
const statuses: Source = {
  name: 'statuses',
  async read({ audit }, { hotelId, bookingId, limit, shared }) {
    const [booking, logged] = await Promise.all([
      shared.booking(),
      audit.writesOf(hotelId, { resource: 'bookings', ids: [bookingId] }, 'status', limit),
    ]);
    const moves = logged
      .filter((entry) => entry.action === 'update')
      .map((entry) => {
        const status = String(entry.after?.status);
        const reason = entry.after?.cancel_reason ?? booking.cancel_reason;
        return { at: entry.at, kind: status, summary: moveSummary(status, reason), actor: auditActor(entry.actor) };
      });
    const kept: [Date | null, string][] = [
      [booking.checked_in_at, 'checked_in'],
      [booking.checked_out_at, 'checked_out'],
      [booking.cancelled_at, 'cancelled'],
    ];
    const olderThanLog = kept
      .filter(([at, kind]) => at !== null && !moves.some((move) => move.kind === kind))
      .map(([at, kind]) => ({ at: at!, kind, summary: moveSummary(kind, booking.cancel_reason), actor: null }));
    const created = { at: booking.created_at, kind: 'created', summary: `Booked (${booking.source})` };
    return readOf([{ ...created, actor: creatorOf(booking) }, ...olderThanLog, ...moves], limit, logged.length);
  },
};

const guestEmails: Source = {
  name: 'guest_emails',
  async read({ bookings }, { hotelId, bookingId }) {
    const sent = await bookings.guestEmailsSent(hotelId, bookingId);
    const entries = sent.map(({ kind, sent_at }) => ({
      at: sent_at,
      kind: 'guest_email',
      summary: `E-mail to the guest: ${kind}`,
      actor: BOOKING_WORKFLOW,
    }));
    return { entries, cut: false };
  },
};

const tvPushes: Source = {
  name: 'tv_pushes',
  async read({ tv }, { hotelId, bookingId, limit }) {
    const pushes = await tv.logOfBooking(hotelId, bookingId, limit);
    const entries = pushes.map((push) => ({
      at: push.created_at,
      kind: 'tv_push',
      summary: `${push.event}: ${push.status}${push.detail ? ` (${push.detail})` : ''}`,
      actor: BOOKING_WORKFLOW,
    }));
    return readOf(entries, limit, pushes.length);
  },
};

const cards: Source = {
  name: 'cards',
  async read({ cards }, { hotelId, bookingId, limit }) {
    // Newest first (at most 200 read): the latest `limit` are the first ones.
    const all = await cards.forBooking(hotelId, bookingId);
    const entries = all.slice(0, limit).flatMap((card): SourceEntry[] => [
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
    return readOf(entries, limit, all.length);
  },
};

const roomService: Source = {
  name: 'room_service',
  async read({ roomservice, audit }, { hotelId, bookingId, limit }) {
    const { items } = await roomservice.orders.list(hotelId, { booking_id: bookingId, limit });
    // Who placed each order (the desk, the guest): the audit log's entry of its insert.
    const ids = items.map((order) => order.id);
    const placed = await audit.writesOf(hotelId, { resource: 'room_service_orders', ids }, 'created_at', limit);
    const placer = new Map(placed.map((entry) => [entry.resource_id, auditActor(entry.actor)]));
    const entries = items.flatMap((order): SourceEntry[] => [
      {
        at: order.created_at,
        kind: 'room_service_order',
        summary: `Order №${order.number}, ${order.total}`,
        actor: placer.get(order.id) ?? null,
      },
      ...(order.delivered_at
        ? [{ at: order.delivered_at, kind: 'room_service_delivered', summary: `Order №${order.number}`, actor: null }]
        : []),
      ...(order.cancelled_at
        ? [{ at: order.cancelled_at, kind: 'room_service_cancelled', summary: `Order №${order.number}`, actor: null }]
        : []),
      ...(order.refunded_at
        ? [{ at: order.refunded_at, kind: 'room_service_refunded', summary: `Order №${order.number}`, actor: null }]
        : []),
    ]);
    return readOf(entries, limit, items.length);
  },
};

/** Notifications of events another source tells already (with who did it): not repeated. */
const TOLD_ELSEWHERE = new Set([
  'booking_created',
  'widget_booking',
  'booking_cancelled_no_show',
  'booking_auto_checked_out',
  'review_created',
  'room_service_order',
  'deposit_settled',
  'payment_received',
  'booking_moved',
]);

const notifications: Source = {
  name: 'notifications',
  async read({ notifications }, { hotelId, bookingId, limit }) {
    const rows = await notifications.aboutBooking(hotelId, bookingId, limit);
    const entries = rows
      .filter((row) => !TOLD_ELSEWHERE.has(row.type))
      .map((notification) => ({
        at: notification.created_at,
        kind: 'notification',
        summary: notification.title,
        actor: null,
      }));
    return readOf(entries, limit, rows.length);
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
    return { entries, cut: false };
  },
};

const loyalty: Source = {
  name: 'loyalty',
  async read({ loyalty }, { hotelId, bookingId, limit }) {
    const rows = await loyalty.entriesOfBooking(hotelId, bookingId, limit);
    const entries = rows.map((entry) => ({
      at: entry.created_at,
      kind: 'loyalty',
      summary: `${entry.points > 0 ? '+' : ''}${entry.points} points (${entry.reason})`,
      actor: entry.created_by ? staff(entry.created_by) : job('bookingLife'),
    }));
    return readOf(entries, limit, rows.length);
  },
};

export const STAY_SOURCES = [statuses, guestEmails, tvPushes, cards, roomService, notifications, review, loyalty];
