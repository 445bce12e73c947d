import type { ModuleFixtures } from '../../platform/fixtures';

/** The reports hold no records of their own; the tourist tax's month is a pattern the gates cannot derive. */
export const reportsFixtures: ModuleFixtures = {
  records: {},
  requests: {
    query: { 'GET /api/hotels/:slug/reports/tourist-tax': { base: () => ({ month: '2031-06' }) } },
  },
};
