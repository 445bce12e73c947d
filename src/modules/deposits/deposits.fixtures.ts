import type { ModuleFixtures } from '../../platform/fixtures';

/** A cash deposit on the seeded booking. */
export const depositsFixtures: ModuleFixtures = {
  needs: ['booking'],
  records: {},
  async seed({ request, canary, records }) {
    await request(`/bookings/${records.booking}/deposit`, {
      body: { kind: 'cash', amount: 500, guest_email: `deposit-${canary}@example.test` },
    });
    return {};
  },
};
