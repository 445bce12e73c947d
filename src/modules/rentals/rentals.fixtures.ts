import { day, type ModuleFixtures } from '../../platform/fixtures';

/** The hotel's first rental object (from its templates) made active, and a daily booking charged to the booking. */
export const rentalsFixtures: ModuleFixtures = {
  needs: ['booking'],
  records: {
    rentalObject: { paths: ['/api/hotels/:slug/rental-objects/:id'], fields: ['rental_object_id'] },
    rentalBooking: { paths: ['/api/hotels/:slug/rental-bookings/:id'] },
  },
  requests: {
    body: {
      // Whole days far ahead, one per call: a day of the seed's object is never taken twice.
      'POST /api/hotels/:slug/rental-bookings': {
        base: (r, n) => ({
          rental_object_id: r.rentalObject,
          kind: 'daily',
          date_from: day(n + 1, '2034-01-01'),
          date_to: day(n + 1, '2034-01-01'),
          guest_name: `Gate renter ${n}`,
          guest_phone: '+79990000001',
          booking_id: r.booking,
        }),
        control: true,
      },
      'PATCH /api/hotels/:slug/rental-bookings/:id': {
        base: (r) => ({ rental_object_id: r.rentalObject, booking_id: r.booking }),
        control: true,
      },
    },
  },
  async seed({ request, canary, records }) {
    const [object] = await request<{ id: string }[]>('/rental-objects', { method: 'get' });
    await request(`/rental-objects/${object.id}`, {
      method: 'patch',
      body: { name: `Court ${canary}`, is_active: true },
    });
    const booking = await request<{ id: string }>('/rental-bookings', {
      body: {
        rental_object_id: object.id,
        kind: 'daily',
        date_from: day(0, '2034-01-01'),
        date_to: day(0, '2034-01-01'),
        guest_name: `Renter ${canary}`,
        guest_phone: '+79990000000',
        booking_id: records.booking,
      },
    });
    return { rentalObject: object.id, rentalBooking: booking.id };
  },
};
