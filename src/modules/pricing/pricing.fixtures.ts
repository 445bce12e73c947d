import { day, type ModuleFixtures } from '../../platform/fixtures';

/** The seed's dates, so another hotel's requests can aim at the same (category, date) keys. */
export const SEED_DATES = {
  periodFrom: '2031-07-01',
  periodTo: '2031-07-31',
  override: '2031-09-01',
};

/** A tariff, a rate period and a price override of the seeded category. */
export const pricingFixtures: ModuleFixtures = {
  needs: ['category'],
  records: {
    tariff: { paths: ['/api/hotels/:slug/tariffs/:id'], fields: ['tariff_id'] },
    ratePeriod: { paths: ['/api/hotels/:slug/rate-periods/:id'] },
    override: { paths: ['/api/hotels/:slug/rate-overrides/:id'] },
  },
  requests: {
    body: {
      'POST /api/hotels/:slug/rate-periods': {
        base: (r, n) => ({
          name: `Gate period ${n}`,
          date_from: day(2 * n, '2033-01-01'),
          date_to: day(2 * n, '2033-01-01'),
          prices: [{ category_id: r.category, price: 100 }],
        }),
        variants: {
          'prices[].category_id': [
            (r, n) => ({
              name: `Gate period ${n}`,
              date_from: day(2 * n, '2033-01-01'),
              date_to: day(2 * n, '2033-01-01'),
              prices: [{ category_id: r.category, price: 100 }],
            }),
            {
              // The dates of the other hotel's seeded period: its (category, dates) must not collide across hotels.
              build: (r, n) => ({
                name: `Gate period ${n}`,
                date_from: SEED_DATES.periodFrom,
                date_to: SEED_DATES.periodTo,
                prices: [{ category_id: r.category, price: 100 }],
              }),
              uncontrolled: "the caller's own seeded period holds these dates",
            },
          ],
        },
        control: true,
      },
      'PATCH /api/hotels/:slug/rate-periods/:id': {
        base: (r) => ({ prices: [{ category_id: r.category, price: 7100 }] }),
        control: true,
      },
      'POST /api/hotels/:slug/rate-overrides': {
        // The date of the other hotel's seeded override: (category, date) keys must not collide across hotels.
        base: (r) => ({ category_id: r.category, date: SEED_DATES.override, price: 100 }),
        control: true,
      },
    },
    query: {
      'GET /api/hotels/:slug/quote': {
        base: (r) => ({ category_id: r.category, check_in: day(20), check_out: day(22) }),
        variants: {
          room_id: (r) => ({ room_id: r.room, check_in: day(20), check_out: day(22) }),
          tariff_id: (r) => ({ category_id: r.category, check_in: day(20), check_out: day(22), tariff_id: r.tariff }),
        },
        control: true,
      },
    },
  },
  async seed({ request, canary, records }) {
    const tariff = await request<{ id: string }>('/tariffs', {
      body: {
        name: `Tariff ${canary}`,
        description: `Tariff description ${canary}`,
        adjustment_type: 'percent',
        adjustment_value: -10,
      },
    });
    const ratePeriod = await request<{ id: string }>('/rate-periods', {
      body: {
        name: `Season ${canary}`,
        date_from: SEED_DATES.periodFrom,
        date_to: SEED_DATES.periodTo,
        prices: [{ category_id: records.category, price: 7000 }],
      },
    });
    const [override] = await request<{ id: string }[]>('/rate-overrides', {
      body: { category_id: records.category, date: SEED_DATES.override, price: 9000 },
      status: 200,
    });
    return { tariff: tariff.id, ratePeriod: ratePeriod.id, override: override.id };
  },
};
