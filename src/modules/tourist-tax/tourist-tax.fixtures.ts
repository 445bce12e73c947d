import type { ModuleFixtures } from '../../platform/fixtures';

/** The tax charged at 2 % with a summer season, and the seeded booking's guest exempt (a student, until 2031). */
export const touristTaxFixtures: ModuleFixtures = {
  needs: ['booking'],
  records: {},
  requests: {
    query: {
      'GET /api/hotels/:slug/tourist-tax/report': { base: () => ({ month: '2031-06' }) },
      'GET /api/hotels/:slug/tourist-tax/report.csv': { base: () => ({ month: '2031-06' }) },
    },
  },
  async seed({ request, records, canary }) {
    await request('/tourist-tax/settings', {
      method: 'patch',
      body: { enabled: true, rate: '1', seasons: [{ from: '2031-06-01', to: '2031-08-31', rate: '3' }] },
    });
    await request(`/bookings/${records.booking}/tourist-tax-exemption`, {
      method: 'put',
      body: {
        category: 'student',
        document_kind: `Студенческий билет ${canary}`,
        document_number: `S-${canary}`,
        document_date: '2026-09-01',
        valid_until: '2031-06-30',
      },
    });
    return {};
  },
};
