import { day, type ModuleFixtures } from '../../platform/fixtures';

/** A booking of the seeded room and tariff, the seeded guest added (then blacklisted), and a payment on it. */
export const bookingsFixtures: ModuleFixtures = {
  needs: ['room', 'tariff', 'guest'],
  records: {
    booking: { paths: ['/api/hotels/:slug/bookings/:id'], fields: ['booking_id'] },
    guest: { paths: ['/api/hotels/:slug/bookings/:id/guests/:guestId'] },
    payment: { paths: ['/api/hotels/:slug/bookings/:id/payments/:paymentId'] },
  },
  async seed({ request, canary, records }) {
    const booking = await request<{ id: string }>('/bookings', {
      body: {
        room_id: records.room,
        check_in: day(9),
        check_out: day(11),
        guest_last_name: `Booker ${canary}`,
        guest_first_name: `Booker first ${canary}`,
        guest_middle_name: `Booker middle ${canary}`,
        guest_email: `${canary}-booker@example.test`,
        tariff_id: records.tariff,
        notes: `Booking notes ${canary}`,
      },
    });
    await request(`/bookings/${booking.id}/guests`, { body: { guest_id: records.guest }, status: 200 });
    await request(`/guests/${records.guest}/blacklist`, {
      body: { is_blacklisted: true, reason: `Reason ${canary}` },
      status: 200,
    });
    const { payment } = await request<{ payment: { id: string } }>(`/bookings/${booking.id}/payments`, {
      body: { amount: 1000, method: 'card', note: `Payment ${canary}` },
    });
    return { booking: booking.id, payment: payment.id };
  },
};
