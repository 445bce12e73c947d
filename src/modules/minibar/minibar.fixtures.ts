import type { ModuleFixtures } from '../../platform/fixtures';

/** A minibar item and a stock movement of it. */
export const minibarFixtures: ModuleFixtures = {
  records: {
    minibarItem: { paths: ['/api/hotels/:slug/minibar-items/:id'], fields: ['item_id'] },
    movement: {},
  },
  requests: {
    body: {
      'POST /api/hotels/:slug/minibar/stock': {
        base: (r) => ({ item_id: r.minibarItem, kind: 'receipt', quantity: 1 }),
        control: true,
      },
    },
  },
  async seed({ request, canary }) {
    const item = await request<{ id: string }>('/minibar-items', {
      body: { name: `Cola ${canary}`, category: `Drinks ${canary}`, price: 150 },
    });
    const { movement } = await request<{ movement: { id: string } }>('/minibar/stock', {
      body: { item_id: item.id, kind: 'receipt', quantity: 20, note: `Delivery ${canary}` },
    });
    return { minibarItem: item.id, movement: movement.id };
  },
};
