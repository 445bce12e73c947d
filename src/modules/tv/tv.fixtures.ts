import type { ModuleFixtures } from '../../platform/fixtures';

/** The TV system reached through the desk (the room mapped), and a push of the booking logged. */
export const tvFixtures: ModuleFixtures = {
  needs: ['workstation', 'room', 'booking'],
  records: {},
  requests: {
    body: {
      'PATCH /api/hotels/:slug/tv-integration/settings': {
        base: (r) => ({ agent_workstation_id: r.workstation }),
        control: true,
      },
      // The seed maps its room to a TV room, reached through its desk.
      'POST /api/hotels/:slug/tv-integration/test-checkin': { base: (r) => ({ room_id: r.room }), control: true },
    },
  },
  async seed({ request, db, hotelId, canary, records }) {
    await request('/tv-integration/settings', {
      method: 'patch',
      body: {
        connection_type: 'agent',
        agent_workstation_id: records.workstation,
        server_url: `http://${canary}.example.test/tv`,
        netup_room_number: { [records.room]: canary },
        tl_token: `${canary}-tv-poll-token`,
      },
    });
    await db('tv_push_log').insert({
      hotel_id: hotelId,
      booking_id: records.booking,
      event: 'check_in',
      status: 'error',
      detail: `HTTP 503: ${canary}`,
      via: 'agent',
      http_status: 503,
    });
    return {};
  },
};
