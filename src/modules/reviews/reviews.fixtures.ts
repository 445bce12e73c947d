import { randomBytes } from 'node:crypto';
import { day, type ModuleFixtures } from '../../platform/fixtures';

/**
 * Reviews on, the booking's review as its guest left it with the link the workflow would have e-mailed (with the
 * hotel's reply), and an e-mail opted out.
 */
export const reviewsFixtures: ModuleFixtures = {
  needs: ['booking'],
  records: {
    review: { paths: ['/api/hotels/:slug/reviews/:id'] },
    reviewOptOut: { paths: ['/api/hotels/:slug/review-opt-outs/:id'] },
  },
  async seed({ request, db, hotelId, canary, records }) {
    await request('/review-settings', {
      method: 'patch',
      body: { invitations_enabled: true, invitation_delay_hours: 48 },
    });
    const stayDays = { stay_from: day(0), stay_to: day(1) };
    const [invitation] = (await db('review_invitations')
      .insert({
        hotel_id: hotelId,
        booking_id: records.booking,
        token_sha256: randomBytes(32).toString('hex'),
        email: `${canary}-reviewer@example.test`,
        guest_first_name: `Reviewer ${canary}`,
        ...stayDays,
        sent_at: new Date(),
        expires_at: new Date(Date.now() + 60 * 86_400_000),
        used_at: new Date(),
      })
      .returning('id')) as { id: string }[];
    const [review] = (await db('reviews')
      .insert({
        hotel_id: hotelId,
        booking_id: records.booking,
        invitation_id: invitation.id,
        overall: 4,
        cleanliness: 5,
        comment: `Review ${canary}`,
        guest_first_name: `Reviewer ${canary}`,
        ...stayDays,
        status: 'pending',
        reply: `Reply ${canary}`,
        replied_at: new Date(),
      })
      .returning('id')) as { id: string }[];
    const optOut = await request<{ id: string }>('/review-opt-outs', {
      body: { email: `${canary}-optout@example.test` },
    });
    return { review: review.id, reviewOptOut: optOut.id };
  },
};
