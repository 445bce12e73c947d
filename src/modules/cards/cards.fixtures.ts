import type { ModuleFixtures } from '../../platform/fixtures';

/** A card written at the desk, as the cardIssuance workflow records one, its number the canary. */
export const cardsFixtures: ModuleFixtures = {
  needs: ['booking', 'workstation', 'room', 'owner'],
  records: { cardIssuance: { paths: ['/api/hotels/:slug/lockvendor/cards/:id'] } },
  requests: {
    body: {
      'POST /api/hotels/:slug/lockvendor/cards/:id/cancel': {
        base: (r) => ({ workstation_id: r.workstation }),
        control: true,
      },
      // Recorded (202), then written by the desk's agent.
      'POST /api/hotels/:slug/lockvendor/issue-card': {
        base: (r) => ({ booking_id: r.booking, workstation_id: r.workstation, sectors: [1] }),
        variants: {
          room_ids: (r) => ({ booking_id: r.booking, workstation_id: r.workstation, sectors: [1], room_ids: [r.room] }),
        },
        control: true,
      },
    },
    query: {
      'GET /api/hotels/:slug/lockvendor/cards': { base: (r) => ({ booking_id: r.booking }), control: true },
      'GET /api/hotels/:slug/lockvendor/dll-info': { base: (r) => ({ workstation_id: r.workstation }), control: true },
    },
  },
  async seed({ db, hotelId, canary, records }) {
    const [card] = (await db('card_issuances')
      .insert({
        hotel_id: hotelId,
        booking_id: records.booking,
        workstation_id: records.workstation,
        room_ids: [records.room],
        sectors: [1],
        valid_from: new Date(),
        valid_until: new Date(Date.now() + 86_400_000),
        status: 'written',
        card_number: canary,
        issued_by: records.owner,
      })
      .returning('id')) as { id: string }[];
    return { cardIssuance: card.id };
  },
};
