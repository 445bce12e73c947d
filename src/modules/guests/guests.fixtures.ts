import type { ModuleFixtures } from '../../platform/fixtures';

/** A guest with passport data (the bookings seed adds it to the booking, then blacklists it). */
export const guestsFixtures: ModuleFixtures = {
  records: {
    guest: {
      paths: ['/api/hotels/:slug/guests/:id', '/api/hotels/:slug/personal-data/guests/:id'],
      fields: ['guest_id'],
    },
  },
  requests: {
    body: {
      'POST /api/hotels/:slug/guests/:id/blacklist': { base: () => ({ is_blacklisted: true, reason: 'Gate reason' }) },
    },
  },
  async seed({ request, canary }) {
    const guest = await request<{ id: string }>('/guests', {
      body: {
        last_name: `Guest ${canary}`,
        first_name: `First ${canary}`,
        middle_name: `Middle ${canary}`,
        email: `${canary}-guest@example.test`,
        phone: `+7 901 ${String(Date.now()).slice(-7)}`,
        citizenship: `Country ${canary}`,
        passport_series: canary.slice(0, 16),
        passport_number: `N${canary}`,
        passport_issued_by: `Issuer ${canary}`,
        notes: `Guest notes ${canary}`,
      },
    });
    return { guest: guest.id };
  },
};
