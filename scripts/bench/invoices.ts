import { fixtureRequisites } from '../../src/modules/invoices/invoices.fixtures';
import type { Db } from '../../src/platform/db/knex';
import { call, signIn } from './fixtures';

const ISSUES = 50;
const BOOKINGS = 10;

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/**
 * 50 invoice issues sent at once to one hotel (10 bookings, 5 charge lines each, one line per invoice): how long they
 * take, and whether their numbers are 1…50 of the hotel's year with no gap and no repeat (read back in SQL); then one
 * PDF downloaded twice (rendered and stored, then read from the store).
 */
export async function benchInvoices(baseUrl: string, db: Db, email: string): Promise<string[]> {
  const { token, hotel } = await signIn(baseUrl, email);
  await call(baseUrl, 'PATCH', `${hotel}/settings`, token, fixtureRequisites('bench'));
  const category = await call<{ id: string }>(baseUrl, 'POST', `${hotel}/room-categories`, token, {
    name: 'Invoices',
    base_price: 3000,
  });
  const room = await call<{ id: string }>(baseUrl, 'POST', `${hotel}/rooms`, token, {
    number: '501',
    category_id: category.id,
  });
  const jobs: { folio_id: string; line_ids: string[] }[] = [];
  for (let b = 0; b < BOOKINGS; b++) {
    const booking = await call<{ id: string }>(baseUrl, 'POST', `${hotel}/bookings`, token, {
      room_id: room.id,
      check_in: day(2 * b + 1),
      check_out: day(2 * b + 2),
      guest_last_name: 'Счетов',
      guest_first_name: `Гость ${b}`,
    });
    const folio = `${hotel}/bookings/${booking.id}/folio`;
    for (let l = 0; l < ISSUES / BOOKINGS; l++) {
      const line = await call<{ id: string; folio_id: string }>(baseUrl, 'POST', `${folio}/lines`, token, {
        kind: 'service',
        amount: `${100 + l}`,
        description: `Услуга ${l}`,
      });
      jobs.push({ folio_id: line.folio_id, line_ids: [line.id] });
    }
  }
  const ids: string[] = [];
  const started = performance.now();
  const statuses = await Promise.all(
    jobs.map(async (body) => {
      const response = await fetch(`${baseUrl}${hotel}/invoices`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
      });
      const answer = (await response.json().catch(() => ({}))) as { code?: string; id?: string };
      if (response.status === 201) ids.push(answer.id!);
      return response.status === 201 ? '201' : `${response.status} ${answer.code ?? '?'}`;
    }),
  );
  const ms = performance.now() - started;
  const download = async () => {
    const from = performance.now();
    const response = await fetch(`${baseUrl}${hotel}/invoices/${ids[0]}/pdf`, {
      headers: { authorization: `Bearer ${token}` },
    });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`GET …/pdf: ${response.status}`);
    return (performance.now() - from).toFixed(0);
  };
  const [first, again] = [await download(), await download()];
  const slug = hotel.split('/').pop()!;
  const { rows } = (await db.raw(
    `SELECT count(*)::int AS issued, count(DISTINCT sequence)::int AS distinct, min(sequence) AS first,
            max(sequence) AS last
     FROM invoices WHERE hotel_id = (SELECT id FROM hotels WHERE slug = ?)`,
    [slug],
  )) as { rows: { issued: number; distinct: number; first: number; last: number }[] };
  const [n] = rows;
  const created = statuses.filter((status) => status === '201').length;
  const refused = new Map<string, number>();
  for (const status of statuses) if (status !== '201') refused.set(status, (refused.get(status) ?? 0) + 1);
  const consecutive = n.issued === ISSUES && n.distinct === ISSUES && n.first === 1 && n.last === ISSUES;
  return [
    `POST /invoices, ${ISSUES} at once (one hotel, ${BOOKINGS} bookings): ${created}/${ISSUES} issued in ` +
      `${(ms / 1000).toFixed(2)} s (${(ms / ISSUES).toFixed(0)} ms each on average)` +
      (refused.size > 0 ? `; refused ${[...refused].map(([status, count]) => `${status}×${count}`).join(' ')}` : ''),
    `  numbers ${n.first}…${n.last}, ${n.distinct} distinct: ${consecutive ? 'consecutive, no gap' : 'GAP OR REPEAT'}`,
    `GET …/invoices/{id}/pdf: first ${first} ms (rendered, kept in the object store), then ${again} ms (from the store)`,
  ];
}
