import { day, type ModuleFixtures } from '../../platform/fixtures';

/** Nights far after every stay the gates book, so the seeded restrictions never refuse one of them. */
const NIGHTS = { from: '2034-01-01', to: '2034-01-31' };
const item = (category: string, n: number) => ({
  category_id: category,
  from: day(n, NIGHTS.from),
  to: day(n + 2, NIGHTS.from),
  min_stay_arrival: 2,
});

/** A minimum stay and a closed arrival of the seeded category, one of them for the seeded tariff only. */
export const restrictionsFixtures: ModuleFixtures = {
  needs: ['category', 'tariff'],
  records: {},
  requests: {
    body: {
      'PUT /api/hotels/:slug/restrictions': {
        base: (r, n) => ({ items: [{ ...item(r.category, n), tariff_id: r.tariff }] }),
        variants: {
          'items[].category_id': (r, n) => ({ items: [item(r.category, n)] }),
          'items[].tariff_id': (r, n) => ({ items: [{ ...item(r.category, n), tariff_id: r.tariff }] }),
        },
        control: true,
      },
    },
    query: {
      'GET /api/hotels/:slug/restrictions': {
        base: () => ({ ...NIGHTS }),
        variants: {
          category_id: (r) => ({ ...NIGHTS, category_id: r.category }),
          tariff_id: (r) => ({ ...NIGHTS, tariff_id: r.tariff }),
        },
        control: true,
      },
    },
  },
  async seed({ request, records }) {
    await request('/restrictions', {
      method: 'put',
      body: {
        items: [
          { ...item(records.category, 0), to: NIGHTS.to, weekdays: [5, 6] },
          { ...item(records.category, 0), tariff_id: records.tariff, min_stay_arrival: null, closed_to_arrival: true },
        ],
      },
    });
    return {};
  },
};
