import { defineHotelRoute, type RouteDefinition } from '../../platform/http/route';
import type { Role } from '../../platform/http/roles';
import { idParams } from '../../platform/http/schemas';
import { timelineSchema } from './timeline.schemas';
import type { TimelineService } from './timeline.service';

/** The front desk, those who manage the hotel, and security (who read the audit log). */
const READERS: readonly Role[] = ['hotel_admin', 'manager', 'receptionist', 'security'];
/** Those who may read the audit log (as its routes say): they see which fields a change wrote. */
const AUDIT_READERS: readonly Role[] = ['super_admin', 'hotel_admin', 'manager', 'security'];

export function timelineRoutes(timeline: TimelineService): RouteDefinition[] {
  return [
    defineHotelRoute<unknown, unknown, { slug: string; id: string }>({
      method: 'get',
      path: '/api/hotels/:slug/bookings/:id/timeline',
      summary: "A booking's timeline: what happened to the stay, with who did it, and what is still to come",
      description:
        'Oldest first: the booking made, checked in, out or cancelled; its rooms (a split stay, a move planned, the ' +
        'guest moved); payments (and those deleted), online payments, deposits (what was kept of them) and their ' +
        'refunds, fiscal receipts; the guest’s e-mails (the booking’s, the deposit statement, invoices), TV pushes, ' +
        'door cards, room-service orders, in-app notifications about it, the review invitation and review, loyalty ' +
        'points, folio lines (the nights and the tourist tax summed, one entry each), lines moved between folios, ' +
        'the settlement decided at check-out, and invoices. Each source reads its latest 200 records; the latest 1000 ' +
        'entries are shown. `upcoming`: what the booking’s durable workflows still mean to do and when (the review ' +
        'invitation, a deposit hold settled, an online payment or deposit expiring); left out, saying so, when ' +
        'Temporal does not answer within a second. The fields a change of the booking wrote (`changed`) are named ' +
        'to those who may read the audit log (hotel_admin, manager, security); the front desk sees the change ' +
        'and who made it.',
      tags: ['Bookings'],
      access: { kind: 'hotel', roles: READERS },
      request: { params: idParams },
      responses: {
        200: { description: 'The timeline', schema: timelineSchema },
        404: { description: 'No such booking' },
      },
      async handler({ hotel, params, auth, res }) {
        res.json(await timeline.of(hotel.id, params.id, { readsAudit: AUDIT_READERS.includes(auth.role) }));
      },
    }),
  ];
}
