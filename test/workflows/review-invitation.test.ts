import { Client, Connection } from '@temporalio/client';
import { createActivities } from '../../activities';
import { createMailer, type Mailer } from '../../src/platform/mail';
import type { ReviewActivities } from '../../workflows/contracts/reviews';
import { as } from '../helpers/accounts';
import { localDay } from '../helpers/dates';
import { linkIn, messagesTo, tokenOf } from '../helpers/mail';
import { connectStaff, startTestServer, type TestServer } from '../helpers/realtime';
import { invitationTo, OPT_OUT_LINK, REVIEW_LINK, reviewingHotel, type ReviewingHotel } from '../helpers/reviews';
import { readStackInfo } from '../helpers/stack-env';
import { outboxWorkflowsAtRest } from '../helpers/workflows';

/**
 * The review invitation end to end: the booking workflow of the shared worker, the hotel's delay as a durable timer
 * (the test stack's worker shortens every hotel's to 2 s), the e-mail from the mail catcher, and the guest's link.
 */

let t: TestServer;
let connection: Connection;
let client: Client;
let mailer: Mailer;
/** The worker's review activities, called here as the workflow would after a delay. */
let activities: ReviewActivities;

beforeAll(async () => {
  t = await startTestServer();
  connection = await Connection.connect({ address: readStackInfo().env.TEMPORAL_ADDRESS });
  client = new Client({ connection });
  mailer = createMailer(readStackInfo().env.SMTP_URL, t.config.mailFrom);
  activities = createActivities({ db: t.db, config: t.config, mailer }) as ReviewActivities;
});
afterAll(async () => {
  mailer.close();
  await connection.close();
  await t.close();
});

/** The booking's workflow (started by the outbox relay) has ended: what follows the stay is done or decided against. */
async function finalStatus(bookingId: string) {
  const workflowId = `booking:${bookingId}`;
  await outboxWorkflowsAtRest(t.db, client, (outbox) => outbox.where('workflow_id', workflowId), {
    what: `the workflow of booking ${bookingId} started`,
  });
  return client.workflow.getHandle(workflowId).result();
}
/** Closes or opens the hotel (`is_active`). */
const setHotelActive = (owner: ReviewingHotel, active: boolean) =>
  t.db('hotels').where({ id: owner.hotel.hotelId }).update({ is_active: active });
const invitationRows = (bookingId: string) => t.db('review_invitations').where({ booking_id: bookingId });

describe('review invitation after the stay', () => {
  it('is e-mailed after the delay, in Russian, with a link that rates the stay once and notifies staff', async () => {
    const owner = await reviewingHotel(t);
    const { body: hotelInfo } = await t.http.get(owner.api('')).set(as(owner.hotel.accessToken)).expect(200);
    const socket = await connectStaff(t.wsUrl, owner.hotel.accessToken);
    const stay = await owner.checkedOut({ firstName: 'Ольга' });

    const { message, token } = await invitationTo(stay.email!);
    expect(await finalStatus(stay.id)).toBe('checked_out');
    expect(message.subject).toBe(`Как прошло ваше проживание? — ${hotelInfo.name}`);
    expect(message.text).toContain('Здравствуйте, Ольга!');
    expect(message.text).toContain(`Спасибо, что выбрали отель «${hotelInfo.name}»`);
    expect(linkIn(message, OPT_OUT_LINK)).toBe(`${OPT_OUT_LINK}${token}`);
    // Only the digest is kept: the link's token is nowhere in the database.
    const [row] = await invitationRows(stay.id);
    expect(row.token_sha256).not.toContain(token);
    expect(JSON.stringify(row)).not.toContain(token);
    expect(row.sent_at).not.toBeNull();

    const { body: link } = await t.http.get(`/api/review-links/${token}`).expect(200);
    expect(link).toEqual({
      hotel_name: hotelInfo.name,
      guest_first_name: 'Ольга',
      stay_from: stay.check_in,
      stay_to: localDay(1),
      expires_at: expect.any(String),
      submitted: false,
      aspects: ['cleanliness', 'staff', 'comfort', 'value'],
    });

    const { body: received } = await t.http
      .post(`/api/review-links/${token}/review`)
      .send({ overall: 4, cleanliness: 5, staff: 4, comfort: 3, value: 4, comment: '  Уютно и тихо  ' })
      .expect(201);
    expect(received).toEqual({ status: 'pending', created_at: expect.any(String) });
    const event = await socket.next((m) => m.type === 'review:created');
    expect(event.payload).toMatchObject({ booking_id: stay.id, overall: 4, status: 'pending' });
    await socket.close();

    const { body: inbox } = await t.http.get(owner.api('/notifications')).set(as(owner.hotel.accessToken)).expect(200);
    const notice = inbox.items.find((n: { type: string }) => n.type === 'review_created');
    expect(notice).toMatchObject({ title: 'Новый отзыв гостя', body: 'Ольга: 4 из 5 — Уютно и тихо' });

    const again = await t.http.post(`/api/review-links/${token}/review`).send({ overall: 1 }).expect(409);
    expect(again.body.error).toBe('По этой ссылке отзыв уже оставлен: второй отзыв о том же проживании не принимается');
    expect((await t.http.get(`/api/review-links/${token}`).expect(200)).body.submitted).toBe(true);
    // One e-mail, whatever the retries.
    expect(await messagesTo(stay.email!)).toHaveLength(1);
  });

  it('is sent to nobody without an address, opted out, of a cancelled booking or with reviews off', async () => {
    const owner = await reviewingHotel(t);
    const noAddress = await owner.checkedOut({ email: null });

    const optedOut = await owner.book();
    await t.http
      .post(owner.api('/review-opt-outs'))
      .set(as(owner.hotel.accessToken))
      .send({ email: optedOut.email!.toUpperCase() })
      .expect(201);
    await owner.setStatus(optedOut.id, 'checked_in');
    await owner.setStatus(optedOut.id, 'checked_out');

    const cancelled = await owner.book();
    await owner.setStatus(cancelled.id, 'cancelled');

    const ota = await owner.checkedOut({ source: 'ota' });

    const quiet = await reviewingHotel(t, { invitations_enabled: false });
    const off = await quiet.checkedOut();

    expect(await finalStatus(noAddress.id)).toBe('checked_out');
    expect(await finalStatus(optedOut.id)).toBe('checked_out');
    expect(await finalStatus(cancelled.id)).toBe('cancelled');
    expect(await finalStatus(ota.id)).toBe('checked_out');
    expect(await finalStatus(off.id)).toBe('checked_out');
    for (const stay of [noAddress, optedOut, cancelled, ota, off]) expect(await invitationRows(stay.id)).toEqual([]);
    for (const stay of [optedOut, cancelled, ota, off]) expect(await messagesTo(stay.email!)).toEqual([]);
  });

  it('is sent by no closed hotel: no delay asked, and nothing sent once a delay is over', async () => {
    const closed = await reviewingHotel(t);
    const setActive = (active: boolean) => setHotelActive(closed, active);
    await setActive(false);
    const stay = await closed.checkedOut();
    expect(await finalStatus(stay.id)).toBe('checked_out');
    // The send step itself, as it runs after the delay for a hotel closed meanwhile.
    expect(await activities.sendReviewInvitation(closed.hotel.hotelId, stay.id)).toBe('not_invited');
    expect(await activities.reviewInvitationDelay(closed.hotel.hotelId, stay.id)).toBeNull();
    expect(await invitationRows(stay.id)).toEqual([]);
    expect(await messagesTo(stay.email!)).toEqual([]);
    // Open again, the same stay would be invited: the hotel's closing alone stopped it.
    await setActive(true);
    expect(await activities.reviewInvitationDelay(closed.hotel.hotelId, stay.id)).toEqual(expect.any(Number));
  });

  it('sent again after the mail server took it without a reply, carries the same working link', async () => {
    const owner = await reviewingHotel(t);
    // The workflow's own step finds the hotel closed and sends nothing; the sends below are the step's attempts.
    await setHotelActive(owner, false);
    const stay = await owner.checkedOut();
    expect(await finalStatus(stay.id)).toBe('checked_out');
    await setHotelActive(owner, true);

    const replyLost: Mailer = {
      send: async (message) => {
        await mailer.send(message);
        throw new Error('the mail server closed the connection before its reply');
      },
      close: () => undefined,
    };
    const firstAttempt = createActivities({ db: t.db, config: t.config, mailer: replyLost }) as ReviewActivities;
    await expect(firstAttempt.sendReviewInvitation(owner.hotel.hotelId, stay.id)).rejects.toThrow('before its reply');
    expect(await activities.sendReviewInvitation(owner.hotel.hotelId, stay.id)).toBe('sent');

    const links = (await messagesTo(stay.email!)).map((message) => tokenOf(linkIn(message, REVIEW_LINK)));
    expect(links).toHaveLength(2);
    expect(links[1]).toBe(links[0]);
    await t.http.get(`/api/review-links/${links[0]}`).expect(200);
  });

  it("the e-mail's opt-out link stops the next invitation to that address", async () => {
    const owner = await reviewingHotel(t);
    const first = await owner.checkedOut();
    const { token } = await invitationTo(first.email!);
    await t.http.post(`/api/review-links/${token}/opt-out`).expect(200, { opted_out: true });

    const { body: optOuts } = await t.http
      .get(owner.api('/review-opt-outs'))
      .query({ email: first.email })
      .set(as(owner.hotel.accessToken))
      .expect(200);
    expect(optOuts).toEqual([expect.objectContaining({ email: first.email, source: 'guest', created_by: null })]);

    const second = await owner.checkedOut({ email: first.email });
    expect(await finalStatus(second.id)).toBe('checked_out');
    expect(await invitationRows(second.id)).toEqual([]);
    expect(await messagesTo(first.email!)).toHaveLength(1);
  });
});
