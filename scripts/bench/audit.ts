import { Client, Connection } from '@temporalio/client';
import type { Db } from '../../src/platform/db/knex';
import type { NightAuditResult } from '../../workflows/contracts/night-audit';
import { call, mapConcurrently, signIn } from './fixtures';
import { seedYearOfHistory } from './history';
import { activityTimes } from './task-latencies';

const ROOMS = 200;

const localDay = (offset: number) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Moscow' }).format(new Date(Date.now() + offset * 86_400_000));

const changed = (result: NightAuditResult) =>
  result.nightsPosted + result.noShows + result.roomsMarked + result.dayClosed + result.snapshots + result.reportsSent;

/** The rows a re-run could touch, counted. */
async function footprint(db: Db, hotelId: string) {
  const count = async (table: string) =>
    Number(((await db(table).where({ hotel_id: hotelId }).count({ n: '*' })) as { n: string }[])[0].n);
  const settings = await db('folio_settings').where({ hotel_id: hotelId }).first('closed_through', 'updated_at');
  return JSON.stringify({
    lines: await count('folio_lines'),
    snapshots: await count('night_audit_snapshots'),
    runs: await db('night_audit_runs').where({ hotel_id: hotelId }).select('status', 'finished_at'),
    dirty: await db('rooms').where({ hotel_id: hotelId, status: 'dirty' }).count({ n: '*' }),
    settings,
  });
}

/**
 * A 200-room hotel with a year of history, full for the night (every room a stay checked in, its nights of that day
 * taken off its folio as for stays checked in before the folios, so the audit posts all 200 and their tax), the days
 * before it closed:
 * the audit of the day by hand, from the request to the workflow's end; then the same day audited again.
 */
export async function benchAudit(baseUrl: string, db: Db, email: string, temporalAddress: string): Promise<string[]> {
  const { token, hotel } = await signIn(baseUrl, email);
  const { hotel_id: hotelId } = (await db('users').where({ email }).first('hotel_id')) as { hotel_id: string };
  await call(baseUrl, 'PATCH', `${hotel}/tourist-tax/settings`, token, { enabled: true, rate: 2 });
  const category = await call<{ id: string }>(baseUrl, 'POST', `${hotel}/room-categories`, token, {
    name: 'Audit',
    base_price: 5000,
  });
  const seeded = performance.now();
  await mapConcurrently(ROOMS, 8, async (i) => {
    const room = await call<{ id: string }>(baseUrl, 'POST', `${hotel}/rooms`, token, {
      number: `A${i}`,
      category_id: category.id,
    });
    const stay = await call<{ id: string }>(baseUrl, 'POST', `${hotel}/bookings`, token, {
      room_id: room.id,
      check_in: localDay(-1 - (i % 3)),
      check_out: localDay(1 + (i % 4)),
      guest_last_name: 'Аудит',
      guest_first_name: `Гость ${i}`,
      price: String(4000 + i * 10),
    });
    await call(baseUrl, 'PATCH', `${hotel}/bookings/${stay.id}`, token, { status: 'checked_in' });
  });
  // The year before the stays in house, ending before the first of them arrived.
  const history = await seedYearOfHistory(db, hotelId, localDay(-368), localDay(-4));
  const day = localDay(-1);
  // The days before it closed (the audit closes the day after the last closed one).
  await call(baseUrl, 'POST', `${hotel}/folio-settings/close-day`, token, { date: localDay(-2) });
  await db('folio_lines')
    .where({ hotel_id: hotelId, business_date: day })
    .whereIn('kind', ['room_night', 'tourist_tax'])
    .delete();
  const seconds = (from: number) => ((performance.now() - from) / 1000).toFixed(2);
  const lines = [
    `night audit: ${ROOMS} rooms, ${ROOMS} stays in house and a year of history (${history} folio lines) seeded in ` +
      `${seconds(seeded)} s`,
  ];

  const connection = await Connection.connect({ address: temporalAddress });
  try {
    const client = new Client({ connection });
    const started = performance.now();
    const run = await call<{ workflow_id: string }>(baseUrl, 'POST', `${hotel}/night-audit/runs`, token);
    // The outbox relay starts the workflow once the request has committed.
    const handle = client.workflow.getHandle(run.workflow_id);
    while (!(await handle.describe().catch(() => undefined))) await new Promise((resolve) => setTimeout(resolve, 50));
    const first = (await handle.result()) as NightAuditResult;
    lines.push(
      `  audit of ${day} (request to workflow end): ${seconds(started)} s (target < 10 s); ` +
        `${first.nightsPosted} lines posted, ${first.roomsMarked} rooms marked, closed ${first.dayClosed}, ` +
        `snapshot ${first.snapshots}, reports ${first.reportsSent}`,
      `  its steps: ${activityTimes(await handle.fetchHistory())
        .map(([name, ms]) => `${name} ${(ms / 1000).toFixed(2)} s`)
        .join(', ')}`,
    );
    const before = await footprint(db, hotelId);
    const again = performance.now();
    const second = (await client.workflow.execute('nightAudit', {
      taskQueue: 'hotel',
      workflowId: `bench-night-audit-rerun-${Date.now()}`,
      args: [{ hotelId, businessDate: day }],
    })) as NightAuditResult;
    const same = before === (await footprint(db, hotelId));
    lines.push(
      `  re-run of the closed day: ${seconds(again)} s, ${changed(second)} rows changed by its steps (target 0); ` +
        `lines, snapshot, run, rooms and close ${same ? 'unchanged' : 'CHANGED'}`,
    );
  } finally {
    await connection.close();
  }
  return lines;
}
