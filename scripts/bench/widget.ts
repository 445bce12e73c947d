import { loadConfig } from '../../src/config';
import { MODULES } from '../../src/modules/registry';
import { createProcessDb, type Db } from '../../src/platform/db/knex';
import { buildModules } from '../../src/platform/modules';
import { bigHotel, day, pseudoRandom } from './bookings';
import { formatLoad, runLoad } from './stats';

const CLIENTS = 20;
const NIGHTS = 30;
const GUESTS = 2;

/** A 30-night stay starting `offset` days from today. */
const stay = (offset: number) => ({ from: day(offset), to: day(offset + NIGHTS), guests: GUESTS });
/** Inside the seeded year (rooms free some nights, none for the whole stay), and past it (every category priced). */
const WINDOWS = { booked: stay(100), free: stay(400) };
/** Each call a stay starting on another of the next 700 days, as many guests browsing would ask. */
const someStay = (random: (n: number) => number) => stay(2 + random(700));

/**
 * The public widget's reads on the 200-room hotel with a year of stays: its availability route (the bookings service's
 * `offers`) and its config over HTTP, each only once the widget module serves it; and `offers` called in this process,
 * without HTTP: the service's own ceiling.
 */
export async function benchWidget(
  baseUrl: string,
  db: Db,
  email: string,
  env: NodeJS.ProcessEnv,
  durationMs: number,
): Promise<string[]> {
  const { hotelId, slug, seeded } = await bigHotel(baseUrl, db, email);
  const lines = [`widget: the same 200-room hotel, ${seeded} stays, ${NIGHTS}-night stays for ${GUESTS} guests`];
  const widget = `/api/widget/${slug}`;
  const get = async (path: string) => {
    const response = await fetch(`${baseUrl}${path}`);
    await response.arrayBuffer();
    return response.status;
  };
  const measure = async (label: string, path: (random: (n: number) => number) => string) => {
    const status = await get(path(pseudoRandom(1)));
    if (status !== 200) {
      lines.push(`${label.padEnd(52)} not measured: it answers ${status} (not wired yet)`);
      return;
    }
    const random = pseudoRandom(3);
    const load = await runLoad(CLIENTS, durationMs, async () => (await get(path(random))) === 200);
    lines.push(`${label.padEnd(52)} ${formatLoad(load)}`);
  };
  const query = ({ from, to, guests }: ReturnType<typeof stay>) => `from=${from}&to=${to}&guests=${guests}`;
  await measure('GET /widget/availability (booked year)', () => `${widget}/availability?${query(WINDOWS.booked)}`);
  await measure(
    'GET /widget/availability (priced, past the year)',
    () => `${widget}/availability?${query(WINDOWS.free)}`,
  );
  await measure(
    'GET /widget/availability (a new stay each call)',
    (r) => `${widget}/availability?${query(someStay(r))}`,
  );
  await measure('GET /widget/config', () => `${widget}/config`);

  const config = loadConfig(env);
  const serviceDb = createProcessDb(config, 'api');
  try {
    const { bookings } = buildModules(MODULES, { db: serviceDb, config }).services;
    const offers = async (random: (n: number) => number, window?: ReturnType<typeof stay>) => {
      await bookings.offers(hotelId, window ?? someStay(random));
      return true;
    };
    for (const [label, window] of [
      ['booked year', WINDOWS.booked],
      ['priced, past the year', WINDOWS.free],
      ['a new stay each call', undefined],
    ] as const) {
      const random = pseudoRandom(5);
      const load = await runLoad(CLIENTS, durationMs, () => offers(random, window));
      lines.push(`${`offers() in process, no HTTP (${label})`.padEnd(52)} ${formatLoad(load)}`);
    }
  } finally {
    await serviceDb.destroy();
  }
  return lines;
}
