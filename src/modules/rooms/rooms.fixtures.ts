import { randomUUID } from 'node:crypto';
import type { ModuleFixtures } from '../../platform/fixtures';

/** A room category and a room of it, both with the uploaded photo. */
export const roomsFixtures: ModuleFixtures = {
  needs: ['upload'],
  records: {
    category: { paths: ['/api/hotels/:slug/room-categories/:id'], fields: ['category_id', 'room_category_id'] },
    room: { paths: ['/api/hotels/:slug/rooms/:id'], fields: ['room_id', 'room_ids'] },
  },
  requests: {
    body: {
      'POST /api/hotels/:slug/room-categories': {
        base: (r, n) => ({ name: `Gate category ${n}`, base_price: 100, photos: [r.upload] }),
        control: true,
      },
      'PATCH /api/hotels/:slug/room-categories/:id': { base: (r) => ({ photos: [r.upload] }), control: true },
      'POST /api/hotels/:slug/rooms': {
        base: (r, n) => ({ number: `g${n}-${randomUUID().slice(0, 6)}`, category_id: r.category, photos: [r.upload] }),
        control: true,
      },
      'PATCH /api/hotels/:slug/rooms/:id': {
        base: (r) => ({ category_id: r.category, photos: [r.upload] }),
        control: true,
      },
    },
  },
  async seed({ request, canary, records }) {
    const category = await request<{ id: string }>('/room-categories', {
      body: {
        name: `Category ${canary}`,
        description: `Description ${canary}`,
        base_price: 5000,
        photos: [records.upload],
      },
    });
    const room = await request<{ id: string }>('/rooms', {
      body: {
        number: canary,
        name: `Room ${canary}`,
        category_id: category.id,
        floor: 3,
        bed_type: `Bed ${canary}`,
        notes: `Notes ${canary}`,
        photos: [records.upload],
      },
    });
    return { category: category.id, room: room.id };
  },
};
