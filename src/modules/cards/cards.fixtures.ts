import type { ModuleFixtures } from '../../platform/fixtures';

/** A card written at the desk, as the cardIssuance workflow records one, its number the canary. */
export const cardsFixtures: ModuleFixtures = {
  needs: ['booking', 'workstation', 'room', 'owner'],
  records: { cardIssuance: { paths: ['/api/hotels/:slug/lockvendor/cards/:id'] } },
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
