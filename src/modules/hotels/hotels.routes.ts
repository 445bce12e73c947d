import { defineHotelRoute, type RouteDefinition } from '../../platform/http/route';
import { ALL_STAFF, HOTEL_MANAGEMENT } from '../../platform/http/roles';
import type { HotelChanges } from './hotels.model';
import { slugParams } from '../../platform/http/schemas';
import { hotelSchema, settingsSchema, updateHotelBody, updateSettingsBody } from './hotels.schemas';
import type { HotelsService, SettingsChanges } from './hotels.service';

export function hotelsRoutes(hotels: HotelsService): RouteDefinition[] {
  return [
    defineHotelRoute({
      method: 'get',
      path: '/api/hotels/:slug',
      summary: 'Read the hotel',
      tags: ['Hotel'],
      concurrency: 'if-match',
      access: { kind: 'hotel', roles: ALL_STAFF },
      request: { params: slugParams },
      responses: { 200: { description: 'The hotel', schema: hotelSchema } },
      async handler({ hotel, res }) {
        res.json(await hotels.getHotel(hotel.id));
      },
    }),
    defineHotelRoute<HotelChanges>({
      method: 'patch',
      path: '/api/hotels/:slug',
      summary: 'Update the hotel',
      description: 'Changes name, address, phone, timezone (IANA), currency (ISO 4217) and check-in/out times (HH:MM).',
      tags: ['Hotel'],
      concurrency: 'if-match',
      access: { kind: 'hotel', roles: HOTEL_MANAGEMENT },
      request: { params: slugParams, body: updateHotelBody },
      responses: { 200: { description: 'The updated hotel', schema: hotelSchema } },
      async handler({ hotel, body, expectedVersion, res }) {
        res.json(await hotels.updateHotel(hotel.id, body, expectedVersion));
      },
    }),
    defineHotelRoute({
      method: 'get',
      path: '/api/hotels/:slug/settings',
      summary: 'Read the hotel settings',
      description:
        'House rules, automation toggles, the hotel SMTP settings (the password is never returned), the room assignment strategy and the language of the e-mails to guests.',
      tags: ['Hotel'],
      concurrency: 'if-match',
      access: { kind: 'hotel', roles: ALL_STAFF },
      request: { params: slugParams },
      responses: { 200: { description: 'The settings', schema: settingsSchema } },
      async handler({ hotel, res }) {
        res.json(await hotels.getSettings(hotel.id));
      },
    }),
    defineHotelRoute<SettingsChanges>({
      method: 'patch',
      path: '/api/hotels/:slug/settings',
      summary: 'Update the hotel settings',
      description:
        '`smtp_password` is stored encrypted (AES-256-GCM) and only reported back as `smtp_password_set`; null clears it. ' +
        'The requisites (what the hotel’s invoices carry) are checked with their check digits and control keys.',
      tags: ['Hotel'],
      concurrency: 'if-match',
      access: { kind: 'hotel', roles: HOTEL_MANAGEMENT },
      request: { params: slugParams, body: updateSettingsBody },
      responses: {
        200: { description: 'The updated settings', schema: settingsSchema },
        422: { description: 'Malformed requisites (INN, KPP, BIK, accounts): every problem named' },
      },
      async handler({ hotel, body, expectedVersion, res }) {
        res.json(await hotels.updateSettings(hotel.id, body, expectedVersion));
      },
    }),
  ];
}
