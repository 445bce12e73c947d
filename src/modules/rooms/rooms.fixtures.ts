import type { ModuleFixtures } from '../../platform/fixtures';

/** A room category and a room of it, both with the uploaded photo. */
export const roomsFixtures: ModuleFixtures = {
  needs: ['upload'],
  records: {
    category: { paths: ['/api/hotels/:slug/room-categories/:id'], fields: ['category_id', 'room_category_id'] },
    room: { paths: ['/api/hotels/:slug/rooms/:id'], fields: ['room_id', 'room_ids'] },
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
