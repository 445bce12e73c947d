import { day, type ModuleFixtures } from '../../platform/fixtures';

/** A stay of the sweep's own, one per call, far after the seeded one. */
const stay = (n: number) => ({ check_in: day(90 + 3 * n), check_out: day(91 + 3 * n) });
/** A split stay of the sweep's over one room (with another hotel's id in place of it, refused before that). */
const splitOf = (room: string, n: number) => [
  { room_id: room, from: day(90 + 3 * n), to: day(91 + 3 * n) },
  { room_id: room, from: day(91 + 3 * n), to: day(92 + 3 * n) },
];
const bookingGuest = (n: number) => ({ guest_last_name: 'Gate', guest_first_name: `Sweep ${n}` });

/** A booking of the seeded room and tariff, the seeded guest added (then blacklisted), and a payment on it. */
export const bookingsFixtures: ModuleFixtures = {
  needs: ['room', 'tariff', 'guest'],
  records: {
    booking: { paths: ['/api/hotels/:slug/bookings/:id'], fields: ['booking_id'] },
    guest: { paths: ['/api/hotels/:slug/bookings/:id/guests/:guestId'] },
    payment: { paths: ['/api/hotels/:slug/bookings/:id/payments/:paymentId'] },
  },
  requests: {
    body: {
      'POST /api/hotels/:slug/bookings': {
        base: (r, n) => ({ room_id: r.room, ...stay(n), ...bookingGuest(n), guest_id: r.guest, tariff_id: r.tariff }),
        variants: {
          category_id: (r, n) => ({ category_id: r.category, ...stay(n), ...bookingGuest(n) }),
          'rooms[].room_id': {
            build: (r, n) => ({
              rooms: splitOf(r.room, n),
              check_in: day(90 + 3 * n),
              check_out: day(92 + 3 * n),
              ...bookingGuest(n),
            }),
            uncontrolled: "the caller's seed has one room: a split stay needs another room for its second segment",
          },
          // With a price given the stay is not quoted, so the tariff is not read by the pricing service.
          tariff_id: [
            (r, n) => ({ room_id: r.room, ...stay(n), ...bookingGuest(n), tariff_id: r.tariff }),
            (r, n) => ({ room_id: r.room, ...stay(n), ...bookingGuest(n), tariff_id: r.tariff, price: 1000 }),
          ],
        },
        control: true,
      },
      'PATCH /api/hotels/:slug/bookings/:id': {
        base: (r) => ({ room_id: r.room, tariff_id: r.tariff }),
        variants: {
          room_id: (r) => ({ room_id: r.room }),
          tariff_id: [(r) => ({ tariff_id: r.tariff }), (r) => ({ tariff_id: r.tariff, price: 1000 })],
        },
        control: true,
      },
      'POST /api/hotels/:slug/bookings/:id/guests': { base: (r) => ({ guest_id: r.guest }), control: true },
      'POST /api/hotels/:slug/bookings/:id/move': {
        base: (r) => ({ room_id: r.room, reason: 'Gate' }),
        variants: {
          room_id: {
            build: (r) => ({ room_id: r.room, reason: 'Gate' }),
            uncontrolled:
              "the seeded booking is in the caller's seeded room already: a move there is refused (same room)",
          },
        },
      },
      // Taken at A's desk, whose register gets the receipt (it waits there for an agent).
      'POST /api/hotels/:slug/bookings/:id/payments': {
        base: () => ({ amount: '10', method: 'cash' }),
        variants: { workstation_id: (r) => ({ amount: '10', method: 'cash', workstation_id: r.workstation }) },
        control: true,
      },
    },
    query: {
      'GET /api/hotels/:slug/availability': { base: () => ({ from: day(0), to: day(3) }), control: true },
      'GET /api/hotels/:slug/availability/calendar': { base: () => ({ from: day(0), to: day(30) }), control: true },
    },
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
