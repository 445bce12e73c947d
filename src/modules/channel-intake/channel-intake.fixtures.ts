import type { ModuleFixtures } from '../../platform/fixtures';
import { revisionsRepository } from './channel-intake.repository';
import type { ChannelIntakeService } from './channel-intake.service';
import type { ChannelRevision } from '../channels';

/**
 * One unplaced OTA booking per hotel, written as the intake's job writes it (no route makes one: the channel does),
 * its guest and codes carrying the canary.
 */
export const channelIntakeFixtures: ModuleFixtures<ChannelIntakeService> = {
  needs: ['room'],
  records: { channelRevision: { paths: ['/api/hotels/:slug/channel-intake/unplaced/:id'] } },
  requests: {
    body: {
      'POST /api/hotels/:slug/channel-intake/unplaced/:id/place': { base: (r) => ({ room_id: r.room }), control: true },
    },
  },
  async seed(hotel) {
    const revision: ChannelRevision = {
      id: `rev-${hotel.canary}`,
      bookingId: `bk-${hotel.canary}`,
      propertyId: `prop-${hotel.canary}`,
      kind: 'new',
      otaName: 'Booking.com',
      otaReservationCode: hotel.canary,
      insertedAt: new Date().toISOString(),
      currency: 'RUB',
      paymentCollect: 'ota',
      customer: { name: hotel.canary, surname: hotel.canary, mail: `${hotel.canary}@example.com`, phone: null },
      rooms: [
        {
          roomTypeId: `rt-${hotel.canary}`,
          ratePlanId: null,
          checkIn: hotel.localDay(400),
          checkOut: hotel.localDay(401),
          nights: { [hotel.localDay(400)]: '5000.00' },
          amount: '5000.00',
          adults: 1,
          children: 0,
        },
      ],
      notes: hotel.canary,
    };
    await revisionsRepository.insert(hotel.db, hotel.hotelId, revision, {
      outcome: 'unplaced',
      reason: 'unmapped_room_type',
    });
    const { id } = (await revisionsRepository.byRevisionId(hotel.db, hotel.hotelId, revision.id))!;
    return { channelRevision: id };
  },
};
