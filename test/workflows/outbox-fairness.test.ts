import { randomUUID } from 'node:crypto';
import { enqueueOutbox, startWorkflowMessage } from '../../src/platform/db/outbox';
import { bookingWorkflowIds, type BookingWorkflow } from '../../workflows/contracts/bookings';
import { createTestApp, type TestApp } from '../helpers/app';
import { registrationBody } from '../helpers/accounts';
import { reportGate } from '../helpers/gates';
import { waitForMessages } from '../helpers/mail';
import { until } from '../helpers/wait';

jest.setTimeout(120_000);

let t: TestApp;
beforeAll(() => {
  t = createTestApp();
});
afterAll(() => t.close());

const FLOOD = 1000;

describe('outbox fairness', () => {
  it("a burst of one hotel does not queue another hotel's e-mail behind it", async () => {
    // Hotel A: a thousand bookings' workflows committed at once (their bookings do not exist: each workflow looks,
    // finds nothing to announce and ends).
    const flooding = `flood-${randomUUID().slice(0, 8)}`;
    await t.db.transaction(async (trx) => {
      for (let i = 0; i < FLOOD; i++) {
        const bookingId = randomUUID();
        await enqueueOutbox(
          trx,
          startWorkflowMessage<BookingWorkflow>(
            'booking',
            bookingWorkflowIds.booking(bookingId),
            [{ hotelId: randomUUID(), bookingId, status: 'cancelled' }],
            { HotelSlug: flooding },
          ),
        );
      }
    });

    // Hotel B registers right after: its confirmation e-mail is queued behind the burst in commit order.
    const body = registrationBody();
    const started = Date.now();
    await t.http.post('/api/auth/register').send(body).expect(201);
    const { slug } = (await t
      .db('users')
      .join('hotels', 'hotels.id', 'users.hotel_id')
      .where('users.email', body.email)
      .first('hotels.slug')) as { slug: string };
    const email = await until(
      async () =>
        (await t
          .db('outbox')
          .where({ lane: slug })
          .whereNotNull('delivered_at')
          .first('delivered_at', 'created_at')) as { delivered_at: Date; created_at: Date } | undefined,
      { what: "hotel B's e-mail workflow started", timeoutMs: 60_000 },
    );
    await waitForMessages(body.email, 1, 60_000);
    const emailSeconds = (Date.now() - started) / 1000;

    // How much of A's burst was still waiting when B's message went out: with one queue in commit order, none.
    const [{ count }] = await t
      .db('outbox')
      .where({ lane: flooding })
      .andWhere((q) => q.whereNull('delivered_at').orWhere('delivered_at', '>', email.delivered_at))
      .count({ count: '*' });
    const startSeconds = (email.delivered_at.getTime() - email.created_at.getTime()) / 1000;
    reportGate(
      'outbox-fairness',
      `hotel B's e-mail workflow started ${startSeconds.toFixed(2)} s after its commit and its e-mail arrived ` +
        `${emailSeconds.toFixed(1)} s after registering, while ${count} of hotel A's ${FLOOD} messages still waited`,
    );
    expect(Number(count)).toBeGreaterThan(FLOOD / 2);

    // And the burst is delivered too.
    await until(async () => !(await t.db('outbox').where({ lane: flooding }).whereNull('delivered_at').first('id')), {
      what: "hotel A's burst delivered",
      timeoutMs: 90_000,
    });
  });
});
