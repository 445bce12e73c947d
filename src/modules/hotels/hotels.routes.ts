import { defineRoute, type RouteDefinition } from '../../platform/http/route';
import { ALL_STAFF, HOTEL_MANAGEMENT } from '../../platform/http/roles';
import type { HotelChanges } from './hotels.model';
import { hotelSchema, slugParams, updateHotelBody } from './hotels.schemas';
import type { HotelsService } from './hotels.service';

export function hotelsRoutes(hotels: HotelsService): RouteDefinition[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/hotels/:slug',
      summary: 'Read the hotel',
      tags: ['Hotel'],
      access: { kind: 'hotel', roles: ALL_STAFF },
      request: { params: slugParams },
      responses: { 200: { description: 'The hotel', schema: hotelSchema } },
      async handler({ hotel, res }) {
        res.json(await hotels.getHotel(hotel!.id));
      },
    }),
    defineRoute<HotelChanges>({
      method: 'patch',
      path: '/api/hotels/:slug',
      summary: 'Update the hotel',
      description: 'Changes name, address, phone, timezone (IANA), currency (ISO 4217) and check-in/out times (HH:MM).',
      tags: ['Hotel'],
      access: { kind: 'hotel', roles: HOTEL_MANAGEMENT },
      request: { params: slugParams, body: updateHotelBody },
      responses: { 200: { description: 'The updated hotel', schema: hotelSchema } },
      async handler({ hotel, body, res }) {
        res.json(await hotels.updateHotel(hotel!.id, body));
      },
    }),
  ];
}
