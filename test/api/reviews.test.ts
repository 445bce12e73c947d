import { Writable } from 'node:stream';
import { createLogger } from '../../src/platform/logger';
import { addStaff, as, registerHotel } from '../helpers/accounts';
import { createTestApp, type TestApp } from '../helpers/app';
import { localDay } from '../helpers/dates';
import { problem } from '../helpers/problem';
import { invitationTo, reviewedStay, reviewingHotel, type ReviewingHotel } from '../helpers/reviews';

let t: TestApp;
let owner: ReviewingHotel;
/** The hotel whose links the guest-side tests use, so the staff lists of `owner` hold only the reviews below. */
let guests: ReviewingHotel;
/** Reviews of the owner's hotel, by what they rated: a 5 with a reply, a 2, a 4 published. */
const ids: Record<'five' | 'two' | 'four', string> = { five: '', two: '', four: '' };

/** The app's log lines (at info, as in production), read by the check that a link's token never reaches them. */
const logLines: string[] = [];
const logger = createLogger('info', 'test', {
  destination: new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  }),
});

beforeAll(async () => {
  t = createTestApp({}, { logger });
  [owner, guests] = await Promise.all([reviewingHotel(t), reviewingHotel(t)]);
  [ids.five, ids.two, ids.four] = await Promise.all([
    reviewedStay(t, owner, { overall: 5, cleanliness: 5, staff: 5, comfort: 4, value: 5, comment: 'Отлично' }),
    reviewedStay(t, owner, { overall: 2, cleanliness: 1, staff: 3, comment: 'Шумно' }),
    reviewedStay(t, owner, { overall: 4, cleanliness: 4, staff: 4, comfort: 4, value: 3 }),
  ]);
  const staff = as(owner.hotel.accessToken);
  await t.http
    .put(owner.api(`/reviews/${ids.five}/reply`))
    .set(staff)
    .send({ text: 'Спасибо!' })
    .expect(200);
  await t.http
    .patch(owner.api(`/reviews/${ids.four}`))
    .set(staff)
    .send({ status: 'published' })
    .expect(200);
});
afterAll(() => t.close());

const link = (token: string) => `/api/review-links/${token}`;

async function listed(query: Record<string, unknown>, token = owner.hotel.accessToken) {
  const { body } = await t.http.get(owner.api('/reviews')).query(query).set(as(token)).expect(200);
  return (body as { id: string }[]).map((review) => review.id);
}

describe('the review link (guest)', () => {
  it('refuses ratings out of range and an overlong comment, and still takes a valid review after', async () => {
    const stay = await guests.checkedOut();
    const { token } = await invitationTo(stay.email!);
    for (const body of [
      {},
      { overall: 0 },
      { overall: 6 },
      { overall: 4.5 },
      { overall: 4, cleanliness: 0 },
      { overall: 4, staff: 6 },
      { overall: 4, value: 'good' },
      { overall: 4, comment: 'x'.repeat(2001) },
    ]) {
      await t.http
        .post(`${link(token)}/review`)
        .send(body)
        .expect(400);
    }
    await t.http
      .post(`${link(token)}/review`)
      .send({ overall: 3, comfort: null })
      .expect(201);
  });

  it('a link used twice at once: one review, one 409', async () => {
    const stay = await guests.checkedOut();
    const { token } = await invitationTo(stay.email!);
    const answers = await Promise.all([5, 1].map((overall) => t.http.post(`${link(token)}/review`).send({ overall })));
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409]);
    const refused = answers.find((answer) => answer.status === 409)!;
    expect(refused.body).toEqual(
      problem(
        409,
        'review_link_used',
        'По этой ссылке отзыв уже оставлен: второй отзыв о том же проживании не принимается',
      ),
    );
    expect(await t.db('reviews').where({ booking_id: stay.id })).toHaveLength(1);
  });

  it('the link works as soon as the e-mail exists, before the worker has recorded it as sent, and stays', async () => {
    const stay = await guests.checkedOut();
    const { token } = await invitationTo(stay.email!);
    // The worker's window between the mail server accepting the e-mail and its commit of `sent_at`, held open.
    await t.db('review_invitations').where({ booking_id: stay.id }).update({ sent_at: null });
    await t.http.get(link(token)).expect(200);
    // The worker's send fails after all (the mailer's answer lost): the claim the guest opened is not given back.
    await t.db('review_invitations').where({ booking_id: stay.id }).whereNull('sent_at').delete();
    await t.http
      .post(`${link(token)}/review`)
      .send({ overall: 5 })
      .expect(201);
  });

  it('an expired link is refused; an unknown one is not found', async () => {
    const stay = await guests.checkedOut();
    const { token } = await invitationTo(stay.email!);
    await t
      .db('review_invitations')
      .where({ booking_id: stay.id })
      .update({ claimed_at: t.db.raw("now() - interval '61 days'"), expires_at: t.db.raw("now() - interval '1 day'") });
    const expired = problem(410, 'review_link_expired', 'Срок действия ссылки на отзыв истёк');
    expect((await t.http.get(link(token)).expect(410)).body).toEqual(expired);
    expect(
      (
        await t.http
          .post(`${link(token)}/review`)
          .send({ overall: 5 })
          .expect(410)
      ).body,
    ).toEqual(expired);
    // The opt-out still works with it.
    await t.http.post(`${link(token)}/opt-out`).expect(200);

    await t.http.get(link('a'.repeat(64))).expect(404);
    await t.http
      .post(`${link('b'.repeat(64))}/review`)
      .send({ overall: 5 })
      .expect(404);
    // A token of a shape no link has is the same 404 (one answer), looked up nowhere.
    await t.http.get(link('not-a-token')).expect(404);
  });

  it("the link's token never reaches the request log", async () => {
    const stay = await guests.checkedOut();
    const { token } = await invitationTo(stay.email!);
    const answers = [
      await t.http.get(link(token)).set('Referer', `http://app.test/review?token=${token}`).expect(200),
      await t.http.post(`${link(token)}/opt-out`).expect(200),
    ];
    const requestIds = answers.map((answer) => answer.headers['x-request-id']);
    const logged = logLines
      .map((line) => JSON.parse(line) as { req?: { id: string; url: string } })
      .filter((line) => requestIds.includes(line.req?.id ?? ''));
    expect(logged.map((line) => line.req!.url)).toEqual([
      '/api/review-links/[redacted]',
      '/api/review-links/[redacted]/opt-out',
    ]);
    expect(logLines.join('\n')).not.toContain(token);
  });

  it('a hotel publishing without moderation shows the review at once', async () => {
    const open = await reviewingHotel(t, { invitations_enabled: true, auto_publish: true });
    const id = await reviewedStay(t, open, { overall: 5 });
    const { body } = await t.http
      .get(open.api(`/reviews/${id}`))
      .set(as(open.hotel.accessToken))
      .expect(200);
    expect(body).toMatchObject({ status: 'published', published_at: expect.any(String) });
  });
});

describe('reviews for staff', () => {
  it('filters by rating, status, reply and days, newest first, a page at a time', async () => {
    expect(await listed({ min_rating: 4 })).toEqual(expect.arrayContaining([ids.five, ids.four]));
    expect(await listed({ min_rating: 4 })).not.toContain(ids.two);
    expect(await listed({ max_rating: 2 })).toEqual(expect.arrayContaining([ids.two]));
    expect(await listed({ max_rating: 2 })).not.toContain(ids.five);
    expect(await listed({ min_rating: 4, max_rating: 4 })).toEqual([ids.four]);
    expect(await listed({ status: 'published' })).toEqual([ids.four]);
    expect(await listed({ has_reply: true })).toEqual([ids.five]);
    expect(await listed({ has_reply: false, min_rating: 4 })).toEqual([ids.four]);
    expect(await listed({ from: localDay(0), to: localDay(0), min_rating: 4 })).toHaveLength(2);
    expect(await listed({ from: localDay(1) })).toEqual([]);
    expect(await listed({ to: localDay(-1) })).toEqual([]);

    const first = await t.http
      .get(owner.api('/reviews'))
      .query({ min_rating: 2, max_rating: 5, limit: 2 })
      .set(as(owner.hotel.accessToken))
      .expect(200);
    expect(first.body).toHaveLength(2);
    const rest = await t.http
      .get(owner.api('/reviews'))
      .query({ min_rating: 2, max_rating: 5, limit: 2, cursor: first.headers['x-next-cursor'] })
      .set(as(owner.hotel.accessToken))
      .expect(200);
    const all = [...first.body, ...rest.body].map((review: { id: string }) => review.id);
    expect(all).toEqual(expect.arrayContaining([ids.five, ids.two, ids.four]));
    expect(new Set(all).size).toBe(all.length);
  });

  it('refuses a reversed or too wide span and a rating out of range', async () => {
    const staff = as(owner.hotel.accessToken);
    await t.http
      .get(owner.api('/reviews'))
      .query({ from: localDay(0), to: localDay(-1) })
      .set(staff)
      .expect(400);
    await t.http.get(owner.api('/reviews')).query({ from: '2024-01-01', to: '2026-06-01' }).set(staff).expect(400);
    await t.http.get(owner.api('/reviews')).query({ min_rating: 6 }).set(staff).expect(400);
    await t.http
      .get(owner.api('/reviews/summary'))
      .query({ from: '2024-01-01', to: '2026-06-01' })
      .set(staff)
      .expect(400);
    await t.http
      .get(owner.api('/reviews/summary'))
      .query({ from: localDay(0) })
      .set(staff)
      .expect(400);
  });

  it('reply, change it, take it back; publish and hide', async () => {
    const staff = as(owner.hotel.accessToken);
    const replied = await t.http
      .put(owner.api(`/reviews/${ids.two}/reply`))
      .set(staff)
      .send({ text: '  Простите за шум, мы заменили окна.  ' })
      .expect(200);
    expect(replied.body).toMatchObject({
      id: ids.two,
      reply: 'Простите за шум, мы заменили окна.',
      replied_by: owner.hotel.userId,
      replied_at: expect.any(String),
      status: 'pending',
      overall: 2,
      cleanliness: 1,
      comfort: null,
      comment: 'Шумно',
      guest_first_name: 'Ольга',
    });
    expect(replied.body).not.toHaveProperty('hotel_id');
    await t.http
      .put(owner.api(`/reviews/${ids.two}/reply`))
      .set(staff)
      .send({ text: ' ' })
      .expect(400);
    await t.http
      .put(owner.api(`/reviews/${ids.two}/reply`))
      .set(staff)
      .send({ text: 'x'.repeat(2001) })
      .expect(400);
    const removed = await t.http
      .delete(owner.api(`/reviews/${ids.two}/reply`))
      .set(staff)
      .expect(200);
    expect(removed.body).toMatchObject({ reply: null, replied_at: null, replied_by: null });

    const published = await t.http
      .patch(owner.api(`/reviews/${ids.two}`))
      .set(staff)
      .send({ status: 'published' });
    expect(published.body).toMatchObject({ status: 'published', published_at: expect.any(String) });
    const hidden = await t.http
      .patch(owner.api(`/reviews/${ids.two}`))
      .set(staff)
      .send({ status: 'hidden' });
    expect(hidden.body).toMatchObject({ status: 'hidden', published_at: published.body.published_at });
    await t.http
      .patch(owner.api(`/reviews/${ids.two}`))
      .set(staff)
      .send({ status: 'pending' })
      .expect(400);
    await t.http
      .patch(owner.api(`/reviews/${ids.two}`))
      .set(staff)
      .send({ status: 'published' })
      .expect(200);
  });

  it('averages per aspect, in all and per month, hidden reviews left out', async () => {
    const hotel = await reviewingHotel(t);
    const staff = as(hotel.hotel.accessToken);
    const [, , hiddenId] = await Promise.all([
      reviewedStay(t, hotel, { overall: 5, cleanliness: 4, staff: 5, comfort: 5, value: 4 }),
      reviewedStay(t, hotel, { overall: 2, cleanliness: 3, staff: 4 }),
      reviewedStay(t, hotel, { overall: 1, cleanliness: 1, staff: 1, comfort: 1, value: 1 }),
    ]);
    await t.http
      .patch(hotel.api(`/reviews/${hiddenId}`))
      .set(staff)
      .send({ status: 'hidden' })
      .expect(200);
    const { body } = await t.http
      .get(hotel.api('/reviews/summary'))
      .query({ from: localDay(-40), to: localDay(0) })
      .set(staff)
      .expect(200);
    const averages = { overall: 3.5, cleanliness: 3.5, staff: 4.5, comfort: 5, value: 4 };
    expect(body).toEqual({
      from: localDay(-40),
      to: localDay(0),
      count: 2,
      averages,
      months: [{ month: localDay(0).slice(0, 7), count: 2, averages }],
    });
    const empty = await t.http
      .get(hotel.api('/reviews/summary'))
      .query({ from: '2025-01-01', to: '2025-12-31' })
      .set(staff)
      .expect(200);
    expect(empty.body).toEqual({
      from: '2025-01-01',
      to: '2025-12-31',
      count: 0,
      averages: { overall: null, cleanliness: null, staff: null, comfort: null, value: null },
      months: [],
    });
  });

  it('the desk reads and keeps opt-outs but neither replies nor moderates', async () => {
    const desk = await addStaff(t, owner.hotel, 'receptionist');
    expect(await listed({ has_reply: true }, desk.accessToken)).toEqual([ids.five]);
    await t.http
      .get(owner.api('/reviews/summary'))
      .query({ from: localDay(-1), to: localDay(0) })
      .set(as(desk.accessToken))
      .expect(200);
    await t.http
      .put(owner.api(`/reviews/${ids.four}/reply`))
      .set(as(desk.accessToken))
      .send({ text: 'x' })
      .expect(403);
    await t.http
      .patch(owner.api(`/reviews/${ids.four}`))
      .set(as(desk.accessToken))
      .send({ status: 'hidden' })
      .expect(403);
    await t.http
      .patch(owner.api('/review-settings'))
      .set(as(desk.accessToken))
      .send({ auto_publish: true })
      .expect(403);

    const added = await t.http
      .post(owner.api('/review-opt-outs'))
      .set(as(desk.accessToken))
      .send({ email: ' Guest.Desk@Example.TEST ' })
      .expect(201);
    expect(added.body).toMatchObject({ email: 'guest.desk@example.test', source: 'staff', created_by: desk.id });
    const again = await t.http
      .post(owner.api('/review-opt-outs'))
      .set(as(desk.accessToken))
      .send({ email: 'guest.desk@example.test' })
      .expect(200);
    expect(again.body.id).toBe(added.body.id);
    const optOuts = await t.http.get(owner.api('/review-opt-outs')).set(as(desk.accessToken)).expect(200);
    // The answers carry what the ReviewOptOut schema documents, and no more (the hotel is the route's own).
    for (const optOut of [added.body, again.body, ...optOuts.body]) expect(optOut).not.toHaveProperty('hotel_id');
    await t.http
      .delete(owner.api(`/review-opt-outs/${added.body.id}`))
      .set(as(desk.accessToken))
      .expect(403);
    await t.http
      .delete(owner.api(`/review-opt-outs/${added.body.id}`))
      .set(as(owner.hotel.accessToken))
      .expect(204);
    await t.http
      .delete(owner.api(`/review-opt-outs/${added.body.id}`))
      .set(as(owner.hotel.accessToken))
      .expect(404);
  });

  it('settings: off by default, bounded, with If-Match', async () => {
    const hotel = await registerHotel(t);
    const path = `/api/hotels/${hotel.slug}/review-settings`;
    const read = await t.http.get(path).set(as(hotel.accessToken)).expect(200);
    expect(read.body).toMatchObject({ invitations_enabled: false, invitation_delay_hours: 24, auto_publish: false });
    await t.http.patch(path).set(as(hotel.accessToken)).send({ invitation_delay_hours: 721 }).expect(400);
    await t.http.patch(path).set(as(hotel.accessToken)).send({}).expect(400);
    await t.http
      .patch(path)
      .set(as(hotel.accessToken))
      .set('If-Match', read.headers.etag)
      .send({ invitation_delay_hours: 48 })
      .expect(200);
    await t.http
      .patch(path)
      .set(as(hotel.accessToken))
      .set('If-Match', read.headers.etag)
      .send({ invitation_delay_hours: 2 })
      .expect(412);
  });

  it("another hotel's reviews and opt-outs are never reached", async () => {
    const other = await registerHotel(t);
    const mine = as(other.accessToken);
    await t.http
      .get(owner.api(`/reviews/${ids.five}`))
      .set(mine)
      .expect(403);
    await t.http.get(owner.api('/reviews')).set(mine).expect(403);
    const own = (path: string) => `/api/hotels/${other.slug}${path}`;
    await t.http
      .get(own(`/reviews/${ids.five}`))
      .set(mine)
      .expect(404);
    await t.http
      .put(own(`/reviews/${ids.five}/reply`))
      .set(mine)
      .send({ text: 'x' })
      .expect(404);
    await t.http
      .patch(own(`/reviews/${ids.five}`))
      .set(mine)
      .send({ status: 'hidden' })
      .expect(404);
    await t.http
      .delete(own(`/reviews/${ids.five}/reply`))
      .set(mine)
      .expect(404);
    expect((await t.http.get(own('/reviews')).set(mine).expect(200)).body).toEqual([]);
    const { body } = await t.http
      .get(own('/reviews/summary'))
      .query({ from: localDay(-1), to: localDay(0) })
      .set(mine);
    expect(body.count).toBe(0);
    const { body: optOut } = await t.http
      .post(owner.api('/review-opt-outs'))
      .set(as(owner.hotel.accessToken))
      .send({ email: 'cross.hotel@example.test' })
      .expect(201);
    await t.http
      .delete(own(`/review-opt-outs/${optOut.id}`))
      .set(mine)
      .expect(404);
    expect((await t.http.get(own('/review-opt-outs')).set(mine).expect(200)).body).toEqual([]);
    const { body: five } = await t.http.get(owner.api(`/reviews/${ids.five}`)).set(as(owner.hotel.accessToken));
    expect(five).toMatchObject({ reply: 'Спасибо!', status: 'pending' });
  });
});
