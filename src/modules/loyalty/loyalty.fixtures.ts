import type { ModuleFixtures } from '../../platform/fixtures';

/**
 * The programme on (its tiers), points added by a manager to the seeded guest and to the booking's booker, and some
 * of the booker's spent on the booking.
 */
export const loyaltyFixtures: ModuleFixtures = {
  needs: ['guest', 'booking'],
  records: {
    loyaltyEntry: {},
    loyaltyRedemption: { paths: ['/api/hotels/:slug/bookings/:id/loyalty-redemptions/:entryId'] },
  },
  async seed({ request, canary, records }) {
    await request('/loyalty/settings', {
      method: 'patch',
      body: {
        enabled: true,
        tiers: [
          { name: `Tier ${canary}`, threshold: 0, earn_rate: 5 },
          { name: `Gold ${canary}`, threshold: 10, earn_rate: 10 },
        ],
      },
    });
    const entry = await request<{ id: string }>(`/guests/${records.guest}/loyalty/adjustments`, {
      body: { points: 500, note: `Points ${canary}` },
    });
    const { guests } = await request<{ guests: { guest_id: string; is_primary: boolean }[] }>(
      `/bookings/${records.booking}`,
      { method: 'get' },
    );
    const booker = guests.find((link) => link.is_primary)!;
    await request(`/guests/${booker.guest_id}/loyalty/adjustments`, {
      body: { points: 500, note: `Booker points ${canary}` },
    });
    const { entry: redemption } = await request<{ entry: { id: string } }>(
      `/bookings/${records.booking}/loyalty-redemptions`,
      { body: { points: 100 } },
    );
    return { loyaltyEntry: entry.id, loyaltyRedemption: redemption.id };
  },
};
