import type { ModuleFixtures } from '../../platform/fixtures';

/**
 * Room service on, a dish of the menu (with the photo), and an order placed by a guest in house now through the
 * public route, with the stay's code; the room and stay it is for are the ones the sweep orders for.
 */
export const roomServiceFixtures: ModuleFixtures = {
  needs: ['category', 'upload'],
  records: {
    menuCategory: {
      paths: ['/api/hotels/:slug/room-service/menu/categories/:id'],
      fields: [
        'POST /api/hotels/:slug/room-service/menu/items category_id',
        'PATCH /api/hotels/:slug/room-service/menu/items/:id category_id',
        'GET /api/hotels/:slug/room-service/menu/items category_id',
      ],
    },
    menuItem: {
      paths: ['/api/hotels/:slug/room-service/menu/items/:id'],
      fields: ['POST /api/hotels/:slug/room-service/orders items[].item_id'],
    },
    roomServiceOrder: { paths: ['/api/hotels/:slug/room-service/orders/:id'] },
    roomServiceStay: { fields: ['POST /api/hotels/:slug/room-service/orders booking_id'] },
    roomServiceRoom: {
      fields: [
        'PATCH /api/hotels/:slug/room-service/settings room_ids[]',
        'POST /api/hotels/:slug/lockvendor/room-locks room_id',
      ],
    },
    booking: { paths: ['/api/hotels/:slug/room-service/stays/:bookingId'] },
  },
  requests: {
    body: {
      'PATCH /api/hotels/:slug/room-service/settings': {
        base: (r) => ({ room_ids: [r.roomServiceRoom] }),
        control: true,
      },
      'POST /api/hotels/:slug/room-service/orders': {
        base: (r) => ({ booking_id: r.roomServiceStay, items: [{ item_id: r.menuItem, quantity: 1 }] }),
        control: true,
      },
      'POST /api/hotels/:slug/room-service/menu/items': {
        base: (r, n) => ({ category_id: r.menuCategory, name: `Gate dish ${n}`, price: 100, photo_url: r.upload }),
        control: true,
      },
      'PATCH /api/hotels/:slug/room-service/menu/items/:id': {
        base: (r) => ({ category_id: r.menuCategory, photo_url: r.upload }),
        control: true,
      },
    },
  },
  async seed({ request, canary, records, localDay }) {
    await request('/room-service/settings', { method: 'patch', body: { enabled: true, delivery_fee: 100 } });
    const menuCategory = await request<{ id: string }>('/room-service/menu/categories', {
      body: { name: `Menu ${canary}` },
    });
    const menuItem = await request<{ id: string }>('/room-service/menu/items', {
      body: {
        category_id: menuCategory.id,
        name: `Dish ${canary}`,
        description: `Dish description ${canary}`,
        price: 250,
        photo_url: records.upload,
      },
    });
    const room = await request<{ id: string; number: string }>('/rooms', {
      body: { number: `${canary.slice(0, 14)}g`, category_id: records.category },
    });
    const stay = await request<{ id: string }>('/bookings', {
      body: {
        room_id: room.id,
        check_in: localDay(-1),
        check_out: localDay(1),
        guest_last_name: `Diner ${canary}`,
        guest_first_name: `Diner first ${canary}`,
      },
    });
    await request(`/bookings/${stay.id}`, { method: 'patch', body: { status: 'checked_in' } });
    const { code } = await request<{ code: string }>(`/room-service/stays/${stay.id}/code`, { method: 'get' });
    const { order } = await request<{ order: { id: string } }>('/room-service/guest/orders', {
      anonymous: true,
      headers: { 'X-Room': room.number, 'X-Stay-Code': code },
      body: { items: [{ item_id: menuItem.id, quantity: 2 }], note: `Order note ${canary}` },
    });
    return {
      menuCategory: menuCategory.id,
      menuItem: menuItem.id,
      roomServiceOrder: order.id,
      roomServiceStay: stay.id,
      roomServiceRoom: room.id,
    };
  },
};
