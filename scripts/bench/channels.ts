import { randomUUID } from 'node:crypto';
import { fakeChannexControl, type FakeAri } from '../../test/fakes/channex';
import { call, signIn } from './fixtures';
import { paced, percentile, percentiles } from './stats';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const PUSH_WINDOW_MS = 6_000;

/** The hotel's date `offset` days from today (the bench's hotels are in Moscow, as registration makes them). */
const day = (offset: number) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Moscow' }).format(new Date(Date.now() + offset * 86_400_000));

/** The most calls of one kind within any 6 s (the channel's window), from their times. */
function mostPerWindow(times: number[]): number {
  let most = 0;
  for (let i = 0; i < times.length; i++) {
    let j = i;
    while (j < times.length && times[j] - times[i] < PUSH_WINDOW_MS) j++;
    most = Math.max(most, j - i);
  }
  return most;
}

/**
 * Change -> at the channel, for the ARI sync against the stack's fake Channex: one hotel connected (a category, a
 * tariff, a property of one room type and rate plan). A change is a restriction written through the API (a minimum
 * stay on one night); it is at the channel when the fake holds it. A paced phase (one change every 7 s, so each push
 * waits for no earlier one), then 1,000 changes within 10 s: the calls per kind in any 6 s, and whether the channel
 * ends equal to what was written.
 */
export async function benchChannels(baseUrl: string, email: string, fakeUrl: string): Promise<string[]> {
  const { token, hotel } = await signIn(baseUrl, email);
  const category = await call<{ id: string }>(baseUrl, 'POST', `${hotel}/room-categories`, token, {
    name: 'Channel bench',
    base_price: 4000,
  });
  await call(baseUrl, 'POST', `${hotel}/rooms`, token, { number: '1', category_id: category.id });
  const tariff = await call<{ id: string }>(baseUrl, 'POST', `${hotel}/tariffs`, token, { name: 'Channel bench' });
  const channex = fakeChannexControl(fakeUrl);
  const apiKey = `bench-${randomUUID()}`;
  const property = await channex.openProperty(randomUUID(), {
    api_key: apiKey,
    room_types: [{ title: 'Bench room type', rate_plans: [{ title: 'Bench plan' }] }],
  });
  const [roomType] = property.room_types;
  const ratePlanId = roomType.rate_plans[0].id;
  const at = (ari: FakeAri, offset: number) => ari.restrictions[ratePlanId]?.[day(offset)]?.min_stay_arrival;
  const untilHolds = async (test: (ari: FakeAri) => boolean, deadlineMs: number) => {
    const deadline = Date.now() + deadlineMs;
    for (;;) {
      if (test(await channex.ari(property.id))) return Date.now();
      if (Date.now() > deadline) throw new Error('the channel did not reach our state in time');
      await sleep(100);
    }
  };

  const connectedAt = Date.now();
  await call(baseUrl, 'POST', `${hotel}/channel-connection`, token, {
    provider: 'channex',
    api_key: apiKey,
    property_id: property.id,
    room_types: [{ room_type_id: roomType.id, category_id: category.id }],
    rate_plans: [{ rate_plan_id: ratePlanId, tariff_id: tariff.id }],
  });
  const syncedAt = await untilHolds((ari) => Object.keys(ari.restrictions[ratePlanId] ?? {}).length === 365, 120_000);

  const write = (offset: number, minStay: number) =>
    call(baseUrl, 'PUT', `${hotel}/restrictions`, token, {
      items: [{ category_id: category.id, from: day(offset), to: day(offset), min_stay_arrival: minStay }],
    });

  // The first change waits for no push of the full sync.
  await sleep(7_000);
  const paced_ = 20;
  const latencies: number[] = [];
  for (let n = 0; n < paced_; n++) {
    const offset = 10 + n;
    const committed = Date.now();
    await write(offset, 3);
    latencies.push((await untilHolds((ari) => at(ari, offset) === 3, 60_000)) - committed);
    await sleep(Math.max(0, 7_000 - (Date.now() - committed)));
  }
  latencies.sort((a, b) => a - b);

  const burst = 1000;
  const burstFrom = Date.now();
  let busy = 0;
  /** A write the hotel's bulkhead answers 503 (too many of its requests at once) is sent again, as a client would. */
  const writeUntilTaken = async (offset: number, minStay: number): Promise<void> => {
    for (;;) {
      try {
        await write(offset, minStay);
        return;
      } catch (error) {
        if (!String(error).includes(': 503 ')) throw error;
        busy += 1;
        await sleep(100);
      }
    }
  };
  // 100 nights from 100 on, each written ten times with another value, one write per request.
  await paced(100, 10_000, (n) => writeUntilTaken(100 + (n % 100), 1 + (n % 7)));
  const burstWrittenIn = (Date.now() - burstFrom) / 1000;
  // Writes of one night may commit out of their send order: what counts is what the hotel holds at the end.
  const ours = await call<{ night: string; min_stay_arrival: number | null; tariff_id: string | null }[]>(
    baseUrl,
    'GET',
    `${hotel}/restrictions?category_id=${category.id}&from=${day(100)}&to=${day(199)}`,
    token,
  );
  const expected = new Map(ours.filter((row) => row.tariff_id === null).map((r) => [r.night, r.min_stay_arrival ?? 1]));
  const equalAt = await untilHolds(
    (ari) => [...expected].every(([night, value]) => ari.restrictions[ratePlanId]?.[night]?.min_stay_arrival === value),
    120_000,
  );
  const calls = (await channex.calls(property.id)).filter((c) => Date.parse(c.at) >= burstFrom);
  const timesOf = (kind: string) =>
    calls.filter((c) => c.kind === kind && c.status === 200).map((c) => Date.parse(c.at));
  const limited = calls.filter((c) => c.status === 429).length;
  const reconciled = await benchReconciliation(baseUrl, token, `${hotel}/channel-connection`, {
    channex,
    propertyId: property.id,
    roomTypeId: roomType.id,
    ratePlanId,
    untilHolds,
  });
  return [
    'channels (a change -> at the fake Channex, one connected hotel, one room type and rate plan)',
    `connect -> 365 days at the channel: ${((syncedAt - connectedAt) / 1000).toFixed(1)} s`,
    `${paced_} changes 7 s apart: ${percentiles(latencies)}, p95 ${percentile(latencies, 95).toFixed(0)} ms (target p95 < 5 s)`,
    `${burst} changes in ${burstWrittenIn.toFixed(1)} s (${busy} answered 503 busy and sent again): ${timesOf('restrictions').length} restrictions and ` +
      `${timesOf('availability').length} availability calls, at most ${mostPerWindow(timesOf('restrictions'))} ` +
      `restrictions and ${mostPerWindow(timesOf('availability'))} availability calls in any 6 s (target 1), ` +
      `${limited} refused 429; the channel equal to ours ${((equalAt - burstFrom) / 1000).toFixed(1)} s after the first ` +
      `(${expected.size} nights checked)`,
    reconciled,
  ];
}

/**
 * A week changed at the channel behind our back (rooms to 0, prices to 1.00, as in its extranet), then one
 * reconciliation asked for: how long until the channel holds ours again, what it found, and the calls it made.
 */
async function benchReconciliation(
  baseUrl: string,
  token: string,
  connection: string,
  at: {
    channex: ReturnType<typeof fakeChannexControl>;
    propertyId: string;
    roomTypeId: string;
    ratePlanId: string;
    untilHolds: (test: (ari: FakeAri) => boolean, deadlineMs: number) => Promise<number>;
  },
): Promise<string> {
  const week = Array.from({ length: 7 }, (_, n) => day(200 + n));
  const range = { date_from: week[0], date_to: week[6] };
  await at.channex.editAtChannel(at.propertyId, 'availability', [
    { room_type_id: at.roomTypeId, ...range, availability: 0 },
  ]);
  await at.channex.editAtChannel(at.propertyId, 'restrictions', [{ rate_plan_id: at.ratePlanId, ...range, rate: 1 }]);
  // The last push of the burst is at most 6 s old: the reconciling push waits out the channel's interval after it.
  await sleep(PUSH_WINDOW_MS);
  const asked = Date.now();
  await call(baseUrl, 'POST', `${connection}/reconcile`, token);
  const putRightAt = await at.untilHolds(
    (ari) =>
      week.every(
        (night) =>
          ari.availability[at.roomTypeId]?.[night] === 1 &&
          ari.restrictions[at.ratePlanId]?.[night]?.rate === '4000.00',
      ),
    60_000,
  );
  const { last_reconciliation: record } = await call<{ last_reconciliation: { differences: number } }>(
    baseUrl,
    'GET',
    connection,
    token,
  );
  const calls = (await at.channex.calls(at.propertyId)).filter((c) => Date.parse(c.at) >= asked);
  return (
    `a week changed at the channel (rooms and prices), then a reconciliation asked for: ours again at the channel ` +
    `${((putRightAt - asked) / 1000).toFixed(1)} s after the request, ${record.differences} item-days found, ` +
    `calls ${calls.map((c) => `${c.kind} ${c.status} (${c.values} values)`).join(', ')}`
  );
}
