import type { Db } from '../../src/platform/db/knex';
import { call, signIn } from './fixtures';

/** One category of ROOMS rooms, HELD of them held by a definite block on one night, raced for by REQUESTS at once. */
const ROOMS = 10;
const HELD = 4;
const REQUESTS = 1000;
const KINDS = ['staff booking', 'widget booking', 'block pickup'] as const;

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/**
 * The last units of one category raced for by 1,000 requests sent at once, a third each: staff bookings by
 * category, the widget's bookings and the block's pickups. Afterwards, in SQL: no room sold twice on the night,
 * the block's stays within what it holds, the others within the rooms it left; and the answers by status.
 */
export async function benchBlocksRace(baseUrl: string, db: Db, email: string): Promise<string[]> {
  const { token, hotel } = await signIn(baseUrl, email);
  const slug = hotel.split('/').pop()!;
  await call(baseUrl, 'PATCH', `${hotel}/settings`, token, { room_assignment_strategy: 'sequential' });
  const category = await call<{ id: string }>(baseUrl, 'POST', `${hotel}/room-categories`, token, {
    name: 'Race',
    base_price: 3000,
  });
  for (let i = 0; i < ROOMS; i++)
    await call(baseUrl, 'POST', `${hotel}/rooms`, token, { number: `9${i}`, category_id: category.id });
  const stay = { category_id: category.id, check_in: day(30), check_out: day(31) };
  const block = await call<{ id: string }>(baseUrl, 'POST', `${hotel}/blocks`, token, {
    name: 'Race',
    status: 'definite',
    allotment: [{ category_id: category.id, from: stay.check_in, to: stay.check_in, rooms: HELD }],
  });
  const guest = (n: number) => ({ guest_last_name: 'Гонка', guest_first_name: `Гость ${n}` });
  const refusedBusy = new Map<string, number>();
  const send = async (path: string, body: object, withToken: boolean) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(withToken && { authorization: `Bearer ${token}` }) },
      body: JSON.stringify(body),
    });
    const answer = (await response.json().catch(() => ({}))) as { code?: string };
    if (response.status >= 500) {
      const code = `${response.status} ${answer.code ?? '?'}`;
      refusedBusy.set(code, (refusedBusy.get(code) ?? 0) + 1);
    }
    return response.status;
  };
  const request = (n: number) => {
    const kind = n % KINDS.length;
    if (kind === 0) return send(`${hotel}/bookings`, { ...stay, ...guest(n) }, true);
    if (kind === 1) {
      const phone = `+7999${String(n).padStart(7, '0')}`;
      const body = { ...stay, ...guest(n), guests_count: 1, guest_phone: phone, guest_email: `race-${n}@example.test` };
      return send(`/api/widget/${slug}/bookings`, body, false);
    }
    return send(`${hotel}/blocks/${block.id}/pickup`, { guests: [{ ...stay, ...guest(n) }] }, true);
  };
  const started = performance.now();
  const statuses = await Promise.all(Array.from({ length: REQUESTS }, (_, n) => request(n)));
  const seconds = (performance.now() - started) / 1000;
  const byKind = KINDS.map((kind, k) => {
    const counts = new Map<number, number>();
    statuses.forEach((status, n) => n % KINDS.length === k && counts.set(status, (counts.get(status) ?? 0) + 1));
    return `${kind}s ${[...counts].map(([status, count]) => `${status}×${count}`).join(' ')}`;
  });
  const { rows } = await db.raw(
    `SELECT
       (SELECT count(*) FROM bookings a JOIN bookings b ON a.room_id = b.room_id AND a.id < b.id
          AND a.status IN ('inquiry','confirmed','checked_in') AND b.status IN ('inquiry','confirmed','checked_in')
          AND tstzrange(a.start_at, a.end_at) && tstzrange(b.start_at, b.end_at)
        WHERE a.category_id = :category)::int AS twice,
       (SELECT count(*) FROM bookings WHERE category_id = :category AND block_id = :block
          AND status IN ('inquiry','confirmed','checked_in'))::int AS picked,
       (SELECT count(*) FROM bookings WHERE category_id = :category AND block_id IS NULL
          AND status IN ('inquiry','confirmed','checked_in'))::int AS others,
       (SELECT count(*) FROM block_nights bn WHERE bn.block_id = :block AND bn.rooms < (
          SELECT count(*) FROM bookings b WHERE b.block_id = bn.block_id AND b.category_id = bn.category_id
            AND b.status IN ('inquiry','confirmed','checked_in') AND b.check_in <= bn.night AND b.check_out > bn.night
        ))::int AS overdrawn`,
    { category: category.id, block: block.id },
  );
  const { twice, picked, others, overdrawn } = rows[0] as Record<'twice' | 'picked' | 'others' | 'overdrawn', number>;
  const fivexx = statuses.filter((status) => status >= 500).length;
  const busy = [...refusedBusy].map(([code, count]) => `${code}×${count}`).join(', ');
  return [
    `Block race: ${REQUESTS} requests at once for one night of ${ROOMS} rooms, ${HELD} held by a block, in ` +
      `${seconds.toFixed(1)} s: ${byKind.join('; ')}`,
    `  in SQL afterwards: ${twice} nights sold twice, ${picked} picked up of ${HELD} held (${overdrawn} block ` +
      `nights overdrawn), ${others} sold outside the block of ${ROOMS - HELD} left; ${fivexx} 5xx${busy && ` (${busy})`}`,
  ];
}
