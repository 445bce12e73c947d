import { settingsRoutes } from '../../platform/http/settings-routes';
import { defineHotelRoute, type RouteDefinition } from '../../platform/http/route';
import { HOTEL_MANAGEMENT } from '../../platform/http/roles';
import { erasureSchema, exportSchema, guestParams, settingsChanges, settingsSchema } from './retention.schemas';
import { retentionMessages, type RetentionService } from './retention.service';
import type { RetentionSettingsChanges } from './retention.types';

const tags = ['Personal data'];
const guestPath = '/api/hotels/:slug/personal-data/guests/:id';
const notFound = { description: retentionMessages.notFound };

/** Retention, exports and erasures are the owner's and the managers' (152-FZ: the operator answers the request). */
export function retentionRoutes(retention: RetentionService): RouteDefinition[] {
  return [
    ...settingsRoutes<RetentionSettingsChanges>({
      path: '/api/hotels/:slug/retention-settings',
      subject: "guests' personal data retention",
      tags,
      readers: HOTEL_MANAGEMENT,
      writers: HOTEL_MANAGEMENT,
      schema: settingsSchema,
      changes: settingsChanges,
      changeDescription:
        "`guest_data_days` (30 to 3650): days a guest's personal data is kept after the last stay; the daily sweep " +
        'erases it then (docs/decisions/retention.md).',
      settings: retention.settings,
    }),
    defineHotelRoute<unknown, unknown, { id: string }>({
      method: 'get',
      path: `${guestPath}/export`,
      summary: 'Export everything held about a guest (JSON)',
      description:
        'The profile (documents in clear), the bookings the guest is the primary guest of with what hangs on them, ' +
        'rental bookings, consents, fiscal receipts under the guest’s contact, loyalty entries; of a stay as a ' +
        'companion, the link only.',
      tags,
      access: { kind: 'hotel', roles: HOTEL_MANAGEMENT },
      request: { params: guestParams },
      responses: { 200: { description: 'The guest’s data', schema: exportSchema }, 404: notFound },
      async handler({ hotel, params, res }) {
        res.json(await retention.exportGuest(hotel.id, params.id));
      },
    }),
    defineHotelRoute<unknown, unknown, { id: string }>({
      method: 'post',
      path: `${guestPath}/erasure`,
      summary: 'Erase a guest’s personal data now',
      description:
        'Overwrites the guest’s names, contacts, documents and notes where they live (the profile; the bookings ' +
        'the guest is the primary guest of and what hangs on them: e-mails, reviews, Wi-Fi, folio and invoice ' +
        'lines, invoice payers; loyalty; rental bookings and fiscal receipts’ buyer contact equal to the guest’s; ' +
        'the hotel’s notifications, realtime replay, outbox; the invoice PDFs, removed after the commit) by an ' +
        'anonymous marker, only where a whole name, phone, e-mail or passport number stands, keeping what ' +
        'accounting and fiscal law require (docs/decisions/retention.md). Answers what was erased and what was kept ' +
        'and why; erasing again changes nothing until the profile is written to again. 409 while the guest is in ' +
        'house or has a stay (or rental booking) to come.',
      tags,
      access: { kind: 'hotel', roles: HOTEL_MANAGEMENT },
      request: { params: guestParams },
      responses: {
        200: { description: 'Erased', schema: erasureSchema },
        404: notFound,
        409: { description: retentionMessages.staying },
      },
      async handler({ hotel, params, res }) {
        res.json(await retention.eraseNow(hotel.id, params.id));
      },
    }),
  ];
}
