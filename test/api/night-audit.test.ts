import { randomUUID } from 'node:crypto';
import { ScheduleNotFoundError } from '@temporalio/client';
import type { TypedSearchAttributes } from '@temporalio/common';
import { searchAttributeKeys } from '../../src/platform/temporal/client';
import { createTestApp, type TestApp } from '../helpers/app';
import { addStaff, as, registerHotel, type RegisteredHotel } from '../helpers/accounts';
import { localDay } from '../helpers/dates';
import { messagesTo } from '../helpers/mail';
import { createCategory, createRoom } from '../helpers/structure';
import { until } from '../helpers/wait';
import { runSchedule, withTemporal } from '../helpers/workflows';

let t: TestApp;
let owner: RegisteredHotel;
let other: RegisteredHotel;
let manager: { email: string; accessToken: string };
beforeAll(async () => {
  t = createTestApp();
  [owner, other] = await Promise.all([registerHotel(t), registerHotel(t)]);
  manager = await addStaff(t, owner, 'manager');
});
afterAll(() => t.close());

const api = (hotel: RegisteredHotel, path: string) => `/api/hotels/${hotel.slug}${path}`;
const get = (hotel: RegisteredHotel, path: string, token = hotel.accessToken) =>
  t.http.get(api(hotel, path)).set(as(token));

interface Line {
  kind: string;
  amount: string;
  business_date: string;
  posted_via: string;
}
const linesOf = async (hotel: RegisteredHotel, bookingId: string): Promise<Line[]> =>
  (
    (await get(hotel, `/bookings/${bookingId}/folio`).expect(200)).body as { folios: { lines: Line[] }[] }
  ).folios.flatMap((folio) => folio.lines);

const cents = (amount: string) => Math.round(Number(amount) * 100);
const money = (kopecks: number) => (kopecks / 100).toFixed(2);

/** A stay in its own room from `from` for `nights`, confirmed, or checked in. */
async function stay(
  hotel: RegisteredHotel,
  roomId: string,
  from: number,
  nights: number,
  price: string,
  checkIn = true,
) {
  const booked = await t.http
    .post(api(hotel, '/bookings'))
    .set(as(hotel.accessToken))
    .send({
      room_id: roomId,
      check_in: localDay(from),
      check_out: localDay(from + nights),
      guest_last_name: 'Ночная',
      guest_first_name: 'Анна',
      price,
    })
    .expect(201);
  if (checkIn)
    await t.http
      .patch(api(hotel, `/bookings/${booked.body.id}`))
      .set(as(hotel.accessToken))
      .send({ status: 'checked_in' })
      .expect(200);
  return booked.body.id as string;
}

const auditDay = localDay(-1);

/** The daily reports `address` received (its other mail, e.g. the registration's, left aside). */
const reportsTo = async (address: string) =>
  (await messagesTo(address)).filter((message) => message.subject.includes('отчёт за'));
const waitForReport = (address: string) =>
  until(
    async () => {
      const reports = await reportsTo(address);
      return reports.length > 0 && reports;
    },
    { what: `the daily report to ${address}`, timeoutMs: 20_000 },
  );

describe('night audit run by hand', () => {
  const ids = { stayover: '', leaving: '', legacy: '', noShow: '' };
  const rooms: string[] = [];
  let report: { subject: string; html: string }[];

  beforeAll(async () => {
    await t.http
      .patch(api(owner, '/tourist-tax/settings'))
      .set(as(owner.accessToken))
      .send({ enabled: true, rate: 2 })
      .expect(200);
    await t.http
      .patch(api(owner, '/settings'))
      .set(as(owner.accessToken))
      .send({ no_show_auto_cancel: true, no_show_hours: 1 })
      .expect(200);
    const category = await createCategory(t, owner);
    for (let n = 0; n < 5; n++) rooms.push((await createRoom(t, owner, category.id)).id);
    // Made before the audited night (a night's rooms are those that existed by its end), whatever the hour now.
    await t
      .db('rooms')
      .where({ hotel_id: owner.hotelId })
      .update({ created_at: t.db.raw("now() - interval '30 days'") });
    await t.http
      .patch(api(owner, `/rooms/${rooms[4]}/status`))
      .set(as(owner.accessToken))
      .send({ status: 'closed' })
      .expect(200);
    ids.stayover = await stay(owner, rooms[0], -2, 3, '9000.00');
    ids.leaving = await stay(owner, rooms[1], -2, 2, '8000.00');
    ids.legacy = await stay(owner, rooms[2], -1, 2, '5000.00');
    ids.noShow = await stay(owner, rooms[3], -1, 2, '4000.00', false);
    // A stay checked in before folios existed: no lines at all (the audit posts its nights as they pass).
    await t.db('folio_lines').where({ hotel_id: owner.hotelId }).whereLike('source', `%:${ids.legacy}:%`).delete();
    // A late arrival's check-in posted the stayover's nights past (3000 each); its night of the audited day is taken
    // off, as if it had checked in that day, and its price raised after: the audit posts that night at the new price.
    await t
      .db('folio_lines')
      .where({ hotel_id: owner.hotelId })
      .whereLike('source', `%:${ids.stayover}:${auditDay}`)
      .delete();
    await t.http
      .patch(api(owner, `/bookings/${ids.stayover}`))
      .set(as(owner.accessToken))
      .send({ price: '12000.00' })
      .expect(200);

    const started = await t.http.post(api(owner, '/night-audit/runs')).set(as(owner.accessToken)).expect(202);
    expect(started.body).toMatchObject({ business_date: auditDay, status: 'running', trigger: 'manual' });
    await until(
      async () => {
        const { runs } = (await get(owner, '/night-audit').expect(200)).body as { runs: { status: string }[] };
        return runs[0]?.status === 'succeeded';
      },
      { what: 'the audit run to succeed', timeoutMs: 90_000 },
    );
    report = await waitForReport(owner.email);
  }, 150_000);

  it("posts each in-house stay's night of the day once, its share of what its price leaves; posted nights stay", async () => {
    const legacy = await linesOf(owner, ids.legacy);
    expect(legacy.map((line) => [line.kind, line.business_date, line.amount, line.posted_via]).sort()).toEqual([
      ['room_night', auditDay, '2500.00', 'night_audit'],
      ['tourist_tax', auditDay, '100.00', 'night_audit'],
    ]);
    const stayover = await linesOf(owner, ids.stayover);
    const nights = stayover.filter((line) => line.kind === 'room_night');
    // (12000 − 3000 posted) shared over the two nights not posted: 4500; tonight's night is the next audit's.
    expect(nights.map((line) => [line.business_date, line.posted_via, line.amount])).toEqual([
      [localDay(-2), 'check_in', '3000.00'],
      [localDay(-1), 'night_audit', '4500.00'],
    ]);
    const leaving = (await linesOf(owner, ids.leaving)).filter((line) => line.kind === 'room_night');
    expect(leaving.map((line) => [line.business_date, line.posted_via, line.amount])).toEqual([
      [localDay(-2), 'check_in', '4000.00'],
      [localDay(-1), 'check_in', '4000.00'],
    ]);
  });

  it('cancels the no-show by the hotel’s rule, marks the stayover’s room dirty, not the leaving one’s', async () => {
    expect((await get(owner, `/bookings/${ids.noShow}`).expect(200)).body).toMatchObject({ status: 'cancelled' });
    expect((await get(owner, `/rooms/${rooms[0]}`).expect(200)).body).toMatchObject({ status: 'dirty' });
    expect((await get(owner, `/rooms/${rooms[1]}`).expect(200)).body).toMatchObject({ status: 'clean' });
  });

  it('closes the day, and writes its statistics equal to an independent sum of the folio lines', async () => {
    expect((await get(owner, '/folio-settings').expect(200)).body).toMatchObject({ closed_through: auditDay });
    let revenue = 0;
    let tax = 0;
    let sold = 0;
    for (const id of [ids.stayover, ids.leaving, ids.legacy, ids.noShow]) {
      const day = (await linesOf(owner, id)).filter((line) => line.business_date === auditDay);
      const nights = day.filter((line) => line.kind === 'room_night');
      revenue += nights.reduce((sum, line) => sum + cents(line.amount), 0);
      tax += day.filter((line) => line.kind === 'tourist_tax').reduce((sum, line) => sum + cents(line.amount), 0);
      sold += nights.length;
    }
    expect(revenue).toBe(450000 + 400000 + 250000);
    const snapshot = (await get(owner, `/night-audit/snapshots/${auditDay}`).expect(200)).body;
    expect(snapshot).toMatchObject({
      business_date: auditDay,
      rooms: 5,
      out_of_order: 1,
      available: 4,
      sold,
      occupancy: (sold / 4).toFixed(4),
      room_revenue: money(revenue),
      adr: money(Math.round(revenue / sold)),
      revpar: money(Math.round(revenue / 4)),
      arrivals: 1,
      departures: 0,
      no_shows: 1,
      tourist_tax: money(tax),
    });
    // One definition: the performance report of that day, read now, gives the same figures.
    const [reported] = (
      await get(owner, `/reports/performance?from=${auditDay}&to=${auditDay}&granularity=day`).expect(200)
    ).body.periods;
    expect(reported).toMatchObject({
      rooms_available: snapshot.available,
      rooms_out_of_order: snapshot.out_of_order,
      rooms_sold: snapshot.sold,
      room_revenue: snapshot.room_revenue,
      adr: snapshot.adr,
      revpar: snapshot.revpar,
    });
    // The same figures for the manager; the accountant reads them too, the desk does not.
    await get(owner, `/night-audit/snapshots/${auditDay}`, manager.accessToken).expect(200);
  });

  it('e-mails the daily report to the owner and the managers, once each', async () => {
    expect(report).toHaveLength(1);
    expect(report[0].subject).toContain(auditDay);
    expect(report[0].html).toContain('<table');
    expect(report[0].html).toContain(money(450000 + 400000 + 250000));
    expect(await waitForReport(manager.email)).toHaveLength(1);
  });

  it('changes nothing when the closed day is audited again; a run by hand now has no ended day (409)', async () => {
    const count = async () =>
      Number((await t.db('folio_lines').where({ hotel_id: owner.hotelId }).count({ n: '*' }))[0].n);
    const before = await count();
    const snapshot = (await get(owner, `/night-audit/snapshots/${auditDay}`).expect(200)).body;
    const result = await withTemporal((client) =>
      client.workflow.execute('nightAudit', {
        taskQueue: 'hotel',
        workflowId: `test-night-audit-${randomUUID()}`,
        args: [{ hotelId: owner.hotelId, businessDate: auditDay }],
      }),
    );
    expect(result).toEqual({
      businessDate: auditDay,
      nightsPosted: 0,
      noShows: 0,
      roomsMarked: 0,
      dayClosed: 0,
      snapshots: 0,
      reportsSent: 0,
    });
    expect(await count()).toBe(before);
    expect((await get(owner, `/night-audit/snapshots/${auditDay}`).expect(200)).body).toEqual(snapshot);
    expect(await reportsTo(owner.email)).toHaveLength(1);
    const again = await t.http.post(api(owner, '/night-audit/runs')).set(as(owner.accessToken)).expect(409);
    expect(again.body.code).toBe('night_audit_day_open');
    expect((await get(owner, '/night-audit').expect(200)).body).toMatchObject({
      business_date: localDay(0),
      closed_through: auditDay,
      day_to_close: localDay(0),
      day_ended: false,
    });
  });

  it('leaves another hotel as it was: no close, no snapshot, no report', async () => {
    expect((await get(other, '/folio-settings').expect(200)).body).toMatchObject({ closed_through: null });
    await get(other, `/night-audit/snapshots/${auditDay}`).expect(404);
    expect((await get(other, '/night-audit').expect(200)).body.runs).toEqual([]);
    expect(await reportsTo(other.email)).toEqual([]);
    await get(other, `/night-audit/snapshots/${auditDay}`, owner.accessToken).expect(403);
  });
});

/** Waits for the run of `date` to succeed. */
const succeeded = (hotel: RegisteredHotel, date: string) =>
  until(
    async () => {
      const { runs } = (await get(hotel, '/night-audit').expect(200)).body as {
        runs: { business_date: string; status: string }[];
      };
      return runs.some((run) => run.business_date === date && run.status === 'succeeded');
    },
    { what: `the audit of ${date} to succeed`, timeoutMs: 90_000 },
  );

describe('night audit day after day', () => {
  it('closes the day after the last closed one, never skipping a day; no close by hand while the audit is on', async () => {
    const hotel = await registerHotel(t);
    await t.http
      .patch(api(hotel, '/settings'))
      .set(as(hotel.accessToken))
      .send({ no_show_auto_cancel: false })
      .expect(200);
    const category = await createCategory(t, hotel);
    const room = await createRoom(t, hotel, category.id);
    const awaited = await stay(hotel, room.id, -2, 1, '3000.00', false);
    const closeByHand = (date: string) =>
      t.http.post(api(hotel, '/folio-settings/close-day')).set(as(hotel.accessToken)).send({ date });
    await closeByHand(localDay(-3)).expect(200);
    expect((await get(hotel, '/night-audit').expect(200)).body).toMatchObject({
      day_to_close: localDay(-2),
      day_ended: true,
    });

    const first = await t.http.post(api(hotel, '/night-audit/runs')).set(as(hotel.accessToken)).expect(202);
    expect(first.body).toMatchObject({ business_date: localDay(-2) });
    await succeeded(hotel, localDay(-2));
    expect((await get(hotel, '/folio-settings').expect(200)).body).toMatchObject({ closed_through: localDay(-2) });
    // The hotel cancels no no-shows itself: the guest still awaited at the audit is the day's no-show all the same.
    expect((await get(hotel, `/night-audit/snapshots/${localDay(-2)}`).expect(200)).body).toMatchObject({
      no_shows: 1,
    });
    expect((await get(hotel, `/bookings/${awaited}`).expect(200)).body).toMatchObject({ status: 'confirmed' });

    await t.http
      .put(api(hotel, '/night-audit/settings'))
      .set(as(hotel.accessToken))
      .send({ enabled: true, hour: 3 })
      .expect(200);
    const refused = await closeByHand(localDay(-1)).expect(409);
    expect(refused.body).toMatchObject({
      code: 'night_audit_enabled',
      detail: 'Дни этого отеля закрывает ночной аудит: пока он включён, день вручную не закрывается',
    });
    const second = await t.http.post(api(hotel, '/night-audit/runs')).set(as(hotel.accessToken)).expect(202);
    expect(second.body).toMatchObject({ business_date: localDay(-1) });
    await succeeded(hotel, localDay(-1));
    expect((await get(hotel, '/folio-settings').expect(200)).body).toMatchObject({ closed_through: localDay(-1) });
  }, 150_000);
});

describe('night audit runs left behind', () => {
  it('takes a day whose run is still `running` past the time a run can last as failed, and runs it', async () => {
    const hotel = await registerHotel(t);
    await t.db('night_audit_runs').insert({
      hotel_id: hotel.hotelId,
      business_date: auditDay,
      status: 'running',
      trigger: 'manual',
      workflow_id: `terminated-${randomUUID()}`,
      started_at: t.db.raw("now() - interval '3 hours'"),
    });
    const started = await t.http.post(api(hotel, '/night-audit/runs')).set(as(hotel.accessToken)).expect(202);
    expect(started.body).toMatchObject({ business_date: auditDay, status: 'running' });
    await succeeded(hotel, auditDay);
  }, 120_000);
});

describe('night audit runs at once', () => {
  it('starts no scheduled run while another day’s run of the hotel is going on', async () => {
    const hotel = await registerHotel(t);
    await t.db('night_audit_runs').insert({
      hotel_id: hotel.hotelId,
      business_date: localDay(-5),
      status: 'running',
      trigger: 'manual',
      workflow_id: `going-on-${randomUUID()}`,
    });
    const result = await withTemporal((client) =>
      client.workflow.execute('nightAudit', {
        taskQueue: 'hotel',
        workflowId: `test-night-audit-${randomUUID()}`,
        args: [{ hotelId: hotel.hotelId }],
      }),
    );
    expect(result).toMatchObject({ businessDate: null, dayClosed: 0 });
    expect((await get(hotel, '/folio-settings').expect(200)).body).toMatchObject({ closed_through: null });
  }, 60_000);
});

describe('night audit schedule', () => {
  const describeSchedule = (hotel: RegisteredHotel) =>
    withTemporal((client) => client.schedule.getHandle(`night-audit:${hotel.hotelId}`).describe());

  it('is made in Temporal at the hotel’s hour and time zone, changed with the settings, removed when off', async () => {
    const hotel = await registerHotel(t);
    expect((await get(hotel, '/night-audit/settings').expect(200)).body).toMatchObject({ enabled: false, hour: 3 });
    const put = (body: object) => t.http.put(api(hotel, '/night-audit/settings')).set(as(hotel.accessToken)).send(body);
    expect((await put({ enabled: true, hour: 2 }).expect(200)).body).toMatchObject({ enabled: true, hour: 2 });
    await put({ enabled: true, hour: 5 }).expect(200);
    const schedule = await until(
      async () => {
        const found = await describeSchedule(hotel).catch((error: unknown) => {
          if (error instanceof ScheduleNotFoundError) return undefined;
          throw error;
        });
        return found?.spec.calendars?.[0]?.hour?.[0]?.start === 5 && found;
      },
      { what: 'the schedule at 05:00', timeoutMs: 30_000 },
    );
    expect(schedule.spec.timezone).toBe('Europe/Moscow');
    expect(schedule.action).toMatchObject({
      type: 'startWorkflow',
      workflowType: 'nightAudit',
      args: [{ hotelId: hotel.hotelId }],
    });
    expect((schedule.action.typedSearchAttributes as TypedSearchAttributes).get(searchAttributeKeys.HotelSlug)).toBe(
      hotel.slug,
    );

    await put({ enabled: false, hour: 5 }).expect(200);
    await until(
      () =>
        describeSchedule(hotel).then(
          () => false,
          (error: unknown) => error instanceof ScheduleNotFoundError,
        ),
      { what: 'the schedule removed', timeoutMs: 30_000 },
    );
  });

  it('follows a change of the hotel’s time zone at its next run, which finds no ended day to close', async () => {
    const hotel = await registerHotel(t);
    await t.http
      .put(api(hotel, '/night-audit/settings'))
      .set(as(hotel.accessToken))
      .send({ enabled: true, hour: 4 })
      .expect(200);
    await until(() => describeSchedule(hotel).catch(() => undefined), { what: 'the schedule', timeoutMs: 30_000 });
    await t.http.patch(api(hotel, '')).set(as(hotel.accessToken)).send({ timezone: 'Asia/Vladivostok' }).expect(200);
    // The hotel's yesterday (by its new clock) audited by hand: the scheduled run has nothing to close.
    const { day_to_close } = (await get(hotel, '/night-audit').expect(200)).body as { day_to_close: string };
    await t.http.post(api(hotel, '/night-audit/runs')).set(as(hotel.accessToken)).expect(202);
    await succeeded(hotel, day_to_close);
    const result = await withTemporal((client) => runSchedule(client, `night-audit:${hotel.hotelId}`));
    expect(result).toMatchObject({ businessDate: null, dayClosed: 0, snapshots: 0 });
    const schedule = await describeSchedule(hotel);
    expect(schedule.spec.timezone).toBe('Asia/Vladivostok');
    expect(schedule.spec.calendars?.[0]?.hour?.[0]?.start).toBe(4);
  });

  it('refuses bad settings and other roles, changing nothing', async () => {
    const put = (body: object, token = owner.accessToken) =>
      t.http.put(api(owner, '/night-audit/settings')).set(as(token)).send(body);
    await put({ enabled: true, hour: 24 }).expect(400);
    await put({ enabled: true, hour: -1 }).expect(400);
    await put({ enabled: 'sometimes', hour: 3 }).expect(400);
    await put({ hour: 3 }).expect(400);
    await put({ enabled: true, hour: 1.5 }).expect(400);
    await get(owner, '/night-audit/snapshots/2026-13-01').expect(400);
    await get(owner, '/night-audit/snapshots/2001-01-01').expect(404);
    const desk = await addStaff(t, owner, 'receptionist');
    await put({ enabled: true, hour: 3 }, desk.accessToken).expect(403);
    await t.http.post(api(owner, '/night-audit/runs')).set(as(desk.accessToken)).expect(403);
    await get(owner, '/night-audit', desk.accessToken).expect(403);
    expect((await get(owner, '/night-audit/settings').expect(200)).body).toMatchObject({ enabled: false, hour: 3 });
  });
});
