import { defineHotelRoute, type RouteDefinition } from '../../platform/http/route';
import { HOTEL_MANAGEMENT, type Role } from '../../platform/http/roles';
import { slugParams } from '../../platform/http/schemas';
import { settingsChanges, settingsSchema } from './loyalty.schemas';
import type { LoyaltyService } from './loyalty.service';
import type { LoyaltySettingsChanges } from './loyalty.types';

/** The desk tells guests about the programme and spends their points; management runs it. */
const LOYALTY_READERS: readonly Role[] = ['hotel_admin', 'manager', 'receptionist'];

const tags = ['Loyalty'];
const settingsPath = '/api/hotels/:slug/loyalty/settings';

export function loyaltyRoutes(loyalty: LoyaltyService): RouteDefinition[] {
  return [
    defineHotelRoute({
      method: 'get',
      path: settingsPath,
      summary: 'Read the loyalty programme',
      tags,
      access: { kind: 'hotel', roles: LOYALTY_READERS },
      concurrency: 'if-match',
      request: { params: slugParams },
      responses: { 200: { description: 'The programme with its tiers', schema: settingsSchema } },
      async handler({ hotel, res }) {
        res.json(await loyalty.settings.get(hotel.id));
      },
    }),
    defineHotelRoute<LoyaltySettingsChanges>({
      method: 'patch',
      path: settingsPath,
      summary: 'Change the loyalty programme',
      description:
        '`enabled` (off by default), `tier_basis` (`nights` or `spend` of checked-out stays in the last 365 days), ' +
        '`point_value` (money one point takes off a bill, 0.01 to 10000), `expiry_months` (1 to 120, null: never), ' +
        '`tiers` (replaces the list: 1 to 10, thresholds unique, exactly one at 0; `earn_rate` points per 100 of a ' +
        "stay's cost, 0 to 1000). A list that breaks a bound is refused (422) and nothing changes.",
      tags,
      access: { kind: 'hotel', roles: HOTEL_MANAGEMENT },
      concurrency: 'if-match',
      request: { params: slugParams, body: settingsChanges },
      responses: {
        200: { description: 'The programme with its tiers', schema: settingsSchema },
        422: { description: 'The tiers break a bound (`loyalty_tiers_invalid`)' },
      },
      async handler({ hotel, body, expectedVersion, res }) {
        res.json(await loyalty.settings.update(hotel.id, body, expectedVersion));
      },
    }),
  ];
}
