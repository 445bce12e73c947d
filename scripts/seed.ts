/**
 * npm run seed: a demo hotel to sign into, created through the HTTP API of a running dev stack (`npm run dev`),
 * so every rule of the API applies. Each run makes a new hotel with a new e-mail.
 *
 *   API_URL       the API (default http://localhost:3000)
 *   DATABASE_URL  its database, read only for the e-mail confirmation token (default: the dev stack's)
 */
import { createDb, type Db } from '../src/platform/db/knex';

const API_URL = (process.env.API_URL ?? 'http://localhost:3000').replace(/\/+$/, '');
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:54329/hotel';
const PASSWORD = 'demo-password-1';

class SeedError extends Error {}

interface Named {
  id: string;
  name: string;
}

let accessToken: string | undefined;

/** One call of the API with the signed-in owner's token; anything but 2xx throws with the answer's body. */
async function api<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${API_URL}${path}`, {
    method,
    headers: {
      ...(body !== undefined && { 'content-type': 'application/json' }),
      ...(accessToken && { authorization: `Bearer ${accessToken}` }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    redirect: 'manual',
  });
  const text = await response.text();
  if (!response.ok) throw new SeedError(`${method} ${path} answered ${response.status}: ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

async function assertApiReachable(): Promise<void> {
  const healthy = await fetch(`${API_URL}/health`).then(
    (response) => response.ok,
    () => false,
  );
  if (!healthy) throw new SeedError(`the API at ${API_URL} is not reachable; start it with \`npm run dev\` first`);
}

// ---- dates (calendar dates as YYYY-MM-DD, UTC) ----

const today = new Date().toISOString().slice(0, 10);
const thisYear = Number(today.slice(0, 4));
const date = (year: number, month: number, day: number) =>
  `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
/** The year in which month/day is today or still ahead. */
const upcomingYear = (month: number, day: number) => (date(thisYear, month, day) >= today ? thisYear : thisYear + 1);

// ---- account ----

async function registerOwner(email: string): Promise<void> {
  await api('POST', '/api/auth/register', {
    hotel_name: 'Демо-отель «Северное сияние»',
    contact: 'Анна Демидова',
    phone: '+7 900 000-00-00',
    address: 'г. Мурманск, ул. Полярная, 1',
    email,
    password: PASSWORD,
  });
}

/** The database is read only for the confirmation token; checked before anything is created. */
async function openDatabase(): Promise<Db> {
  const db = createDb(DATABASE_URL, { role: 'migrations', poolMax: 1 });
  try {
    await db.raw('select 1');
    return db;
  } catch (error) {
    await db.destroy();
    const shown = new URL(DATABASE_URL);
    if (shown.password) shown.password = '***';
    throw new SeedError(`cannot reach the database at ${shown} (${(error as Error).message}); set DATABASE_URL`);
  }
}

/** Follows the e-mail's confirmation link, taking its token from the database instead of the mailbox. */
async function confirmEmail(db: Db, email: string): Promise<void> {
  const user = (await db('users').where({ email }).first('confirmation_token')) as
    { confirmation_token: string | null } | undefined;
  if (!user?.confirmation_token) {
    throw new SeedError(`no confirmation token for ${email} in DATABASE_URL: is it the database of ${API_URL}?`);
  }
  const response = await fetch(`${API_URL}/api/auth/confirm-email?token=${user.confirmation_token}`, {
    redirect: 'manual',
  });
  const location = response.headers.get('location') ?? '';
  if (response.status !== 302 || !location.includes('confirmed=1')) {
    throw new SeedError(`confirm-email answered ${response.status} ${location}`);
  }
}

async function logIn(email: string): Promise<string> {
  const session = await api<{ access_token: string; user: { hotelSlug: string } }>('POST', '/api/auth/login', {
    email,
    password: PASSWORD,
  });
  accessToken = session.access_token;
  return session.user.hotelSlug;
}

// ---- structure ----

async function configureHotel(hotel: string): Promise<void> {
  await api('PATCH', `${hotel}/settings`, {
    early_checkin_enabled: true,
    late_checkout_enabled: true,
    room_assignment_strategy: 'spread',
  });
}

async function createCategories(hotel: string) {
  const create = (body: object) => api<Named>('POST', `${hotel}/room-categories`, body);
  return {
    standard: await create({
      name: 'Стандарт',
      description: 'Уютный номер с двуспальной кроватью',
      capacity: 2,
      base_price: 4500,
      sort_order: 1,
    }),
    comfort: await create({
      name: 'Комфорт',
      description: 'Просторный номер с видом на залив; можно на несколько часов',
      capacity: 3,
      base_price: 6500,
      allow_hourly: true,
      hourly_base_price: 800,
      sort_order: 2,
    }),
    suite: await create({
      name: 'Люкс',
      description: 'Двухкомнатный номер с гостиной и сауной',
      capacity: 4,
      base_price: 12000,
      sort_order: 3,
    }),
  };
}

type Categories = Awaited<ReturnType<typeof createCategories>>;

async function createRooms(hotel: string, categories: Categories): Promise<Map<string, string>> {
  const { standard, comfort, suite } = categories;
  const rooms: [string, Named, object?][] = [
    ['101', standard],
    ['102', standard],
    ['103', standard],
    ['104', standard, { name: 'Угловой', base_rate: 5000, early_checkin_fee: 1000, late_checkout_fee: 1000 }],
    ['201', standard, { bed_type: 'twin' }],
    ['202', standard, { bed_type: 'twin' }],
    ['203', comfort],
    ['204', comfort],
    ['301', comfort],
    ['302', comfort],
    ['303', comfort, { name: 'С балконом', base_rate: 7000, hourly_rate: 900, late_checkout_fee: 1500 }],
    ['401', suite, { early_checkin_fee: 2500, late_checkout_fee: 2500 }],
    ['402', suite, { early_checkin_fee: 2500, late_checkout_fee: 2500 }],
    ['403', suite, { name: 'Президентский', base_rate: 18000, early_checkin_fee: 4000, late_checkout_fee: 4000 }],
  ];
  const ids = new Map<string, string>();
  for (const [number, category, extra] of rooms) {
    const room = await api<{ id: string }>('POST', `${hotel}/rooms`, {
      number,
      category_id: category.id,
      floor: Number(number[0]),
      max_guests: category === suite ? 4 : category === comfort ? 3 : 2,
      ...extra,
    });
    ids.set(number, room.id);
  }
  await api('PATCH', `${hotel}/rooms/${ids.get('102')}/status`, { status: 'dirty' });
  const inThreeDays = new Date(Date.now() + 3 * 86_400_000).toISOString();
  await api('PATCH', `${hotel}/rooms/${ids.get('202')}/status`, {
    status: 'maintenance',
    maintenance_from: new Date().toISOString(),
    maintenance_to: inThreeDays,
  });
  return ids;
}

// ---- prices ----

async function createTariffs(hotel: string) {
  const create = (body: object) => api<Named>('POST', `${hotel}/tariffs`, body);
  return {
    base: await create({ name: 'Базовый', adjustment_type: 'percent', adjustment_value: 0 }),
    nonRefundable: await create({
      name: 'Невозвратный',
      description: 'Скидка 10 % без возможности отмены',
      adjustment_type: 'percent',
      adjustment_value: -10,
      refundable: false,
    }),
    breakfast: await create({
      name: 'С завтраком',
      description: 'Завтрак «шведский стол» включён',
      adjustment_type: 'fixed',
      adjustment_value: 700,
      meals: 'breakfast',
    }),
    longStay: await create({
      name: 'Длительное проживание',
      description: 'От 7 ночей — скидка 15 %',
      adjustment_type: 'percent',
      adjustment_value: -15,
      min_nights: 7,
    }),
  };
}

async function createRatePeriods(hotel: string, { standard, comfort, suite }: Categories): Promise<void> {
  await api('POST', `${hotel}/rate-periods`, {
    name: 'Новогодние праздники',
    date_from: date(thisYear, 12, 28),
    date_to: date(thisYear + 1, 1, 8),
    prices: [
      { category_id: standard.id, price: 7000 },
      { category_id: comfort.id, price: 9500, hourly_price: 1200 },
      { category_id: suite.id, price: 18000 },
    ],
  });
  const summer = upcomingYear(8, 31);
  await api('POST', `${hotel}/rate-periods`, {
    name: 'Лето',
    date_from: date(summer, 6, 1),
    date_to: date(summer, 8, 31),
    prices: [
      { category_id: standard.id, price: 5500 },
      { category_id: comfort.id, price: 7800 },
      { category_id: suite.id, price: 14000 },
    ],
  });
}

async function createRateOverrides(hotel: string, { comfort, suite }: Categories): Promise<void> {
  const may = upcomingYear(5, 10);
  await api('POST', `${hotel}/rate-overrides`, {
    category_id: suite.id,
    date_from: date(may, 5, 1),
    date_to: date(may, 5, 10),
    price: 15000,
  });
  await api('POST', `${hotel}/rate-overrides`, {
    category_id: comfort.id,
    date: date(upcomingYear(2, 14), 2, 14),
    price: 8500,
    hourly_price: 1000,
  });
}

// ---- the demo ----

/** Four nights across the start of the New Year period, with breakfast and 5 % off. */
async function sampleQuote(hotel: string, categories: Categories, tariffs: Awaited<ReturnType<typeof createTariffs>>) {
  const query = new URLSearchParams({
    category_id: categories.comfort.id,
    check_in: date(thisYear, 12, 26),
    check_out: date(thisYear, 12, 30),
    tariff_id: tariffs.breakfast.id,
    discount: '5',
  });
  const path = `${hotel}/quote?${query}`;
  const quote = await api<{ total: string; currency: string; units: number }>('GET', path);
  return { url: `${API_URL}${path}`, ...quote };
}

async function main(): Promise<void> {
  await assertApiReachable();
  const db = await openDatabase();
  const email = `demo+${Date.now()}@hotel-pms.local`;
  try {
    await registerOwner(email);
    await confirmEmail(db, email);
  } finally {
    await db.destroy();
  }
  const slug = await logIn(email);
  const hotel = `/api/hotels/${slug}`;

  await configureHotel(hotel);
  const categories = await createCategories(hotel);
  const rooms = await createRooms(hotel, categories);
  const tariffs = await createTariffs(hotel);
  await createRatePeriods(hotel, categories);
  await createRateOverrides(hotel, categories);
  const quote = await sampleQuote(hotel, categories, tariffs);

  console.log(`Demo hotel ready: 3 categories, ${rooms.size} rooms, 4 tariffs, 2 rate periods, overrides.
  API        ${API_URL}
  Hotel slug ${slug}
  Sign in    ${email} / ${PASSWORD}   (POST ${API_URL}/api/auth/login)
  API docs   ${API_URL}/api/docs

Sample quote (send with "Authorization: Bearer <access_token from the login>"):
  ${quote.url}
  -> ${quote.units} nights, total ${quote.total} ${quote.currency}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof SeedError ? `seed: ${error.message}` : error);
  process.exit(1);
});
