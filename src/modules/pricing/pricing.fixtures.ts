import type { ModuleFixtures } from '../../platform/fixtures';

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
