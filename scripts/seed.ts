/**
 * npm run seed: a demo hotel in operation, made through the HTTP API of a running dev stack (`npm run dev`) the way
 * its people would make it, so every rule of the API applies. The owner sets up rooms and prices and hires the staff;
 * the manager sets up checklists and the minibar; the front desk keeps guest profiles and books eight weeks around
 * today (checking guests in and out, taking payments); housekeepers clean after the check-outs, the technician
 * repairs, security reports a leak. Around them the hotel's services run (scripts/seed/services.ts): payments on the
 * dev YooKassa sandbox, deposits, the booking widget, rentals, a paired desk, Wi-Fi, TV, the staff chat, room
 * service, reviews, loyalty, and the staff's pushes to the dev push service. A seeded generator makes the same hotel
 * on every run (relative to today). The accounts have fixed e-mails, so it refuses to run twice on one database
 * (delete `.data/` to start over).
 *
 *   API_URL       the API (default http://localhost:3000)
 *   DATABASE_URL  its database, read only for the e-mail confirmation token (default: the dev stack's)
 *   and the addresses of the dev stack's sandboxes, see scripts/seed/services.ts
 */
import { slugify } from '../src/modules/hotels/hotels.slug';
import { createDb, type Db } from '../src/platform/db/knex';
import {
  API_URL,
  ApiError,
  assertApiReachable,
  date,
  DAY_MS,
  dayAt,
  hotelTime,
  PASSWORD,
  request,
  SeedError,
  signIn,
  thisYear,
  today,
  upcomingYear,
  type Member,
  type Team,
} from './seed/support';
import { runServicesDay, servicesSummary, setUpServices, type InHouseStay } from './seed/services';

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:54329/hotel';
const EMAIL_DOMAIN = 'siyanie.demo';
const OWNER = { name: 'Анна Демидова', email: `owner@${EMAIL_DOMAIN}` };

// ---- deterministic randomness ----

/** mulberry32: a small seeded generator, so every run draws the same hotel. */
function seededRandom(seed: number) {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  return {
    int,
    chance: (probability: number) => next() < probability,
    pick: <T>(items: readonly T[]): T => items[int(0, items.length - 1)],
    digits: (count: number) => Array.from({ length: count }, () => int(0, 9)).join(''),
  };
}

// A seed whose plan shows every case on the day: guests gone and still due out, arrived and still expected.
const random = seededRandom(24);

// ---- account ----

async function registerOwner(): Promise<void> {
  try {
    await request('POST', '/api/auth/register', {
      hotel_name: 'Демо-отель «Северное сияние»',
      contact: OWNER.name,
      phone: '+7 900 000-00-00',
      address: 'г. Мурманск, ул. Полярная, 1',
      email: OWNER.email,
      password: PASSWORD,
    });
  } catch (error) {
    if (error instanceof ApiError && error.status === 409) {
      throw new SeedError(
        `the demo hotel is already in this database: sign in as ${OWNER.email} / ${PASSWORD} ` +
          '(to seed it afresh, stop `npm run dev`, delete .data/ and start it again)',
      );
    }
    throw error;
  }
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

// ---- staff ----

type StaffRole = 'manager' | 'receptionist' | 'accountant' | 'housekeeper' | 'technician' | 'security';

/** Each signs in as `<login>@siyanie.demo`. */
const STAFF: { login: string; role: StaffRole; name: string; position: string }[] = [
  { login: 'manager', role: 'manager', name: 'Ольга Смирнова', position: 'Управляющая' },
  { login: 'reception1', role: 'receptionist', name: 'Дмитрий Соколов', position: 'Администратор' },
  { login: 'reception2', role: 'receptionist', name: 'Екатерина Новикова', position: 'Администратор' },
  { login: 'accountant', role: 'accountant', name: 'Марина Лебедева', position: 'Бухгалтер' },
  { login: 'housekeeper1', role: 'housekeeper', name: 'Галина Орлова', position: 'Горничная' },
  { login: 'housekeeper2', role: 'housekeeper', name: 'Светлана Морозова', position: 'Горничная' },
  { login: 'technician', role: 'technician', name: 'Виктор Кузнецов', position: 'Техник' },
  { login: 'security', role: 'security', name: 'Андрей Волков', position: 'Охранник' },
];

async function hireStaff(owner: Member): Promise<Team> {
  const emailOf = (login: string) => `${login}@${EMAIL_DOMAIN}`;
  // One after the other: each costs a bcrypt hash, and the hotel's requests in handlers at once are few.
  for (const [index, { login, ...member }] of STAFF.entries()) {
    await owner.api('POST', '/users', {
      ...member,
      email: emailOf(login),
      phone: `+7 815 220-00-${String(index + 1).padStart(2, '0')}`,
      password: PASSWORD,
    });
  }
  // Sign-ins are not hotel requests: side by side.
  const members = await Promise.all(STAFF.map(({ login }) => signIn(emailOf(login))));
  const withRole = (role: StaffRole) => members.filter((member) => member.role === role);
  return {
    owner,
    manager: withRole('manager')[0],
    desk: withRole('receptionist'),
    accountant: withRole('accountant')[0],
    housekeepers: withRole('housekeeper'),
    technician: withRole('technician')[0],
    security: withRole('security')[0],
    byId: new Map([owner, ...members].map((member) => [member.id, member])),
  };
}

// ---- structure ----

type CategoryKey = 'standard' | 'comfort' | 'suite';
type Categories = Record<CategoryKey, { id: string }>;

interface RoomSpec {
  number: string;
  category: CategoryKey;
  extra?: {
    name?: string;
    bed_type?: string;
    base_rate?: number;
    hourly_rate?: number;
    early_checkin_fee?: number;
    late_checkout_fee?: number;
  };
}

const ROOMS: RoomSpec[] = [
  { number: '101', category: 'standard' },
  { number: '102', category: 'standard' },
  { number: '103', category: 'standard' },
  {
    number: '104',
    category: 'standard',
    extra: { name: 'Угловой', base_rate: 5000, early_checkin_fee: 1000, late_checkout_fee: 1000 },
  },
  { number: '201', category: 'standard', extra: { bed_type: 'twin' } },
  { number: '202', category: 'standard', extra: { bed_type: 'twin' } },
  { number: '203', category: 'comfort' },
  { number: '204', category: 'comfort' },
  { number: '301', category: 'comfort' },
  { number: '302', category: 'comfort' },
  {
    number: '303',
    category: 'comfort',
    extra: { name: 'С балконом', base_rate: 7000, hourly_rate: 900, late_checkout_fee: 1500 },
  },
  { number: '401', category: 'suite', extra: { early_checkin_fee: 2500, late_checkout_fee: 2500 } },
  { number: '402', category: 'suite', extra: { early_checkin_fee: 2500, late_checkout_fee: 2500 } },
  {
    number: '403',
    category: 'suite',
    extra: { name: 'Президентский', base_rate: 18000, early_checkin_fee: 4000, late_checkout_fee: 4000 },
  },
];

const MAX_GUESTS: Record<CategoryKey, number> = { standard: 2, comfort: 3, suite: 4 };

/** Closed for planned repairs from now on for a few days. */
const REPAIRS = { room: '202', days: 3 };
/** Where security finds a leak today; the urgent repair closes the room for a day (the hotel's emergency_close_days). */
const LEAK_ROOM = '302';

async function configureHotel(owner: Member): Promise<void> {
  await owner.api('PATCH', '/settings', {
    early_checkin_enabled: true,
    late_checkout_enabled: true,
    room_assignment_strategy: 'spread',
  });
  // Turnover cleans go to the housekeepers in turn, repairs to the technician.
  await owner.api('PATCH', '/housekeeping-settings', { auto_assign_strategy: 'round_robin' });
}

async function createCategories(owner: Member): Promise<Categories> {
  const create = (body: object) => owner.api<{ id: string }>('POST', '/room-categories', body);
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

/** The rooms by number → id. */
async function createRooms(owner: Member, categories: Categories): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  for (const { number, category, extra } of ROOMS) {
    const room = await owner.api<{ id: string }>('POST', '/rooms', {
      number,
      category_id: categories[category].id,
      floor: Number(number[0]),
      max_guests: MAX_GUESTS[category],
      ...extra,
    });
    ids.set(number, room.id);
  }
  return ids;
}

// ---- prices ----

type TariffKey = 'base' | 'nonRefundable' | 'breakfast' | 'longStay';
type Tariffs = Record<TariffKey, { id: string }>;

async function createTariffs(owner: Member): Promise<Tariffs> {
  const create = (body: object) => owner.api<{ id: string }>('POST', '/tariffs', body);
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

async function createRatePeriods(owner: Member, { standard, comfort, suite }: Categories): Promise<void> {
  await owner.api('POST', '/rate-periods', {
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
  await owner.api('POST', '/rate-periods', {
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

async function createRateOverrides(owner: Member, { comfort, suite }: Categories): Promise<void> {
  const may = upcomingYear(5, 10);
  await owner.api('POST', '/rate-overrides', {
    category_id: suite.id,
    date_from: date(may, 5, 1),
    date_to: date(may, 5, 10),
    price: 15000,
  });
  await owner.api('POST', '/rate-overrides', {
    category_id: comfort.id,
    date: date(upcomingYear(2, 14), 2, 14),
    price: 8500,
    hourly_price: 1000,
  });
}

// ---- checklists and minibar (the manager) ----

const TURNOVER_CHECKLIST = [
  'Сменить постельное бельё',
  'Заменить полотенца',
  'Убрать ванную комнату',
  'Пропылесосить и вымыть пол',
  'Пополнить косметику и воду',
  'Проверить свет и технику',
];

async function createChecklistTemplates(manager: Member, categories: Categories): Promise<void> {
  const templates = [
    { name: 'Уборка номера', task_category: 'housekeeping', items: TURNOVER_CHECKLIST },
    {
      name: 'Уборка люкса',
      task_category: 'housekeeping',
      room_category_id: categories.suite.id,
      items: [...TURNOVER_CHECKLIST, 'Убрать сауну', 'Сменить халаты и тапочки'],
    },
    {
      name: 'Ремонт',
      task_category: 'maintenance',
      items: ['Осмотреть неисправность', 'Устранить неисправность', 'Убрать за собой рабочее место'],
    },
  ];
  for (const template of templates) await manager.api('POST', '/checklist-templates', template);
}

const MINIBAR = [
  { name: 'Вода питьевая 0,5 л', category: 'Напитки', price: 150, stock: 60 },
  { name: 'Кока-кола 0,33 л', category: 'Напитки', price: 200, stock: 40 },
  { name: 'Сок апельсиновый 0,2 л', category: 'Напитки', price: 250, stock: 30 },
  { name: 'Пиво светлое 0,5 л', category: 'Алкоголь', price: 350, stock: 30 },
  { name: 'Вино красное 0,187 л', category: 'Алкоголь', price: 600, stock: 20 },
  { name: 'Орешки кешью 50 г', category: 'Снеки', price: 300, stock: 30 },
  { name: 'Шоколад молочный', category: 'Снеки', price: 250, stock: 30 },
  { name: 'Чипсы 70 г', category: 'Снеки', price: 200, stock: 30 },
];

/** The minibar items, by id; stocked by a housekeeper (who restocks the minibars). */
async function stockMinibar(manager: Member, housekeeper: Member): Promise<string[]> {
  const ids: string[] = [];
  for (const [index, { stock, ...item }] of MINIBAR.entries()) {
    const created = await manager.api<{ id: string }>('POST', '/minibar-items', { ...item, sort_order: index + 1 });
    await housekeeper.api('POST', '/minibar/stock', {
      item_id: created.id,
      kind: 'receipt',
      quantity: stock,
      note: 'Поставка от ООО «Северторг»',
    });
    ids.push(created.id);
  }
  await housekeeper.api('POST', '/minibar/stock', {
    item_id: ids[MINIBAR.findIndex((item) => item.category === 'Снеки')],
    kind: 'write_off',
    quantity: 2,
    note: 'Повреждённая упаковка',
  });
  return ids;
}

/** What a guest took from the minibar: now and then a bottle or a snack. */
function minibarTaken(itemIds: string[]) {
  return itemIds.filter(() => random.chance(0.12)).map((item_id) => ({ item_id, quantity: random.int(1, 2) }));
}

// ---- people ----

// prettier-ignore
const MALE_NAMES = [
  'Александр', 'Дмитрий', 'Максим', 'Сергей', 'Андрей', 'Алексей', 'Артём', 'Илья', 'Кирилл', 'Михаил', 'Никита',
  'Иван', 'Павел', 'Роман', 'Евгений', 'Олег',
];
// prettier-ignore
const FEMALE_NAMES = [
  'Анна', 'Мария', 'Елена', 'Ольга', 'Наталья', 'Татьяна', 'Ирина', 'Екатерина', 'Светлана', 'Юлия', 'Дарья',
  'Анастасия', 'Ксения', 'Виктория', 'Полина',
];
/** Patronymics without their ending (-ич for men, -на for women). */
// prettier-ignore
const PATRONYMIC_STEMS = [
  'Александров', 'Сергеев', 'Андреев', 'Викторов', 'Николаев', 'Петров', 'Иванов', 'Михайлов', 'Дмитриев',
  'Владимиров', 'Алексеев', 'Юрьев',
];
/** Surnames in the male form; the female form adds -а. */
// prettier-ignore
const SURNAMES = [
  'Иванов', 'Смирнов', 'Кузнецов', 'Попов', 'Васильев', 'Петров', 'Соколов', 'Михайлов', 'Новиков', 'Фёдоров',
  'Морозов', 'Волков', 'Алексеев', 'Лебедев', 'Семёнов', 'Егоров', 'Павлов', 'Козлов', 'Степанов', 'Николаев',
  'Орлов', 'Андреев', 'Макаров', 'Никитин', 'Захаров', 'Зайцев', 'Соловьёв', 'Борисов', 'Яковлев', 'Григорьев',
  'Романов', 'Воробьёв', 'Сергеев', 'Белов', 'Тарасов', 'Комаров', 'Киселёв', 'Ильин', 'Гусев', 'Титов', 'Баранов',
  'Куликов', 'Давыдов', 'Жуков', 'Крылов', 'Калинин',
];
const PASSPORT_OFFICES = [
  'ГУ МВД России по г. Москве',
  'ГУ МВД России по г. Санкт-Петербургу и Ленинградской области',
  'УМВД России по Мурманской области',
  'ГУ МВД России по Свердловской области',
  'УМВД России по Архангельской области',
];
const GUEST_NOTES = [
  'Постоянный гость, предпочитает высокий этаж',
  'Аллергия на перьевые подушки',
  'Просит номер подальше от лифта',
  'Командировки от ООО «Арктикнефть», нужны закрывающие документы',
];

interface Person {
  last_name: string;
  first_name: string;
  middle_name: string;
  phone: string;
  email: string | null;
  /** Set once the front desk has entered the guest's profile. */
  profileId?: string;
}

const personKey = (person: Person) => `${person.last_name} ${person.first_name}`;
const usedNames = new Set<string>();

/** A new person with a name not used yet, a mobile number and usually an e-mail. */
function newPerson(): Person {
  for (;;) {
    const female = random.chance(0.5);
    const surname = random.pick(SURNAMES);
    const person: Person = {
      last_name: female ? `${surname}а` : surname,
      first_name: random.pick(female ? FEMALE_NAMES : MALE_NAMES),
      middle_name: `${random.pick(PATRONYMIC_STEMS)}${female ? 'на' : 'ич'}`,
      phone: `+7 9${random.digits(2)} ${random.digits(3)}-${random.digits(2)}-${random.digits(2)}`,
      email: null,
    };
    if (usedNames.has(personKey(person))) continue;
    usedNames.add(personKey(person));
    if (random.chance(0.7)) {
      const domain = random.pick(['example.com', 'example.org', 'example.net']);
      person.email = `${slugify(person.first_name)}.${slugify(person.last_name)}@${domain}`;
    }
    return person;
  }
}

/** Profiles the front desk keeps; the last one is blacklisted. Other guests get theirs with their first booking. */
const PROFILES = 36;
const profiles = Array.from({ length: PROFILES }, newPerson);
const blacklisted = profiles[PROFILES - 1];
const regulars = profiles.slice(0, -1);

function profileBody(person: Person): object {
  const withPassport = random.chance(0.5);
  const pastDate = (fromYear: number, toYear: number) =>
    date(random.int(fromYear, toYear), random.int(1, 12), random.int(1, 28));
  return {
    last_name: person.last_name,
    first_name: person.first_name,
    middle_name: person.middle_name,
    phone: person.phone,
    email: person.email,
    ...(random.chance(0.15) && { notes: random.pick(GUEST_NOTES) }),
    ...(withPassport && {
      birth_date: pastDate(1958, 2003),
      citizenship: 'Россия',
      passport_series: random.digits(4),
      passport_number: random.digits(6),
      passport_issued_by: random.pick(PASSPORT_OFFICES),
      passport_issue_date: pastDate(2008, 2023),
    }),
  };
}

async function createGuestProfiles(team: Team): Promise<void> {
  for (const [index, person] of profiles.entries()) {
    const desk = team.desk[index % team.desk.length];
    person.profileId = (await desk.api<{ id: string }>('POST', '/guests', profileBody(person))).id;
  }
  await team.manager.api('POST', `/guests/${blacklisted.profileId}/blacklist`, {
    is_blacklisted: true,
    reason: 'Повредил мебель в номере и отказался возместить ущерб',
  });
}

// ---- the booking plan ----

/** Nights taken (day offsets), per room or per guest: what the plan looks at before it books. */
class Nights {
  private readonly taken = new Map<string, Set<number>>();

  isFree(key: string, first: number, count: number): boolean {
    const nights = this.taken.get(key);
    return !nights || Array.from({ length: count }, (_, index) => first + index).every((night) => !nights.has(night));
  }

  /** How many nights from `first`, at most `wanted`, are free in a row. */
  freeRun(key: string, first: number, wanted: number): number {
    let count = 0;
    while (count < wanted && this.isFree(key, first + count, 1)) count++;
    return count;
  }

  take(key: string, first: number, count: number): void {
    const nights = this.taken.get(key) ?? new Set<number>();
    for (let night = first; night < first + count; night++) nights.add(night);
    this.taken.set(key, nights);
  }
}

const roomNights = new Nights();
const guestNights = new Nights();
// Nothing booked where the closures fall: the planned one from yesterday's arrival (leaving at noon, after it has
// begun) to the night it ends; the leak's (made after the bookings) tonight and tomorrow night.
roomNights.take(REPAIRS.room, -1, REPAIRS.days + 2);
roomNights.take(LEAK_ROOM, 0, 2);

const PAST_DAYS = 14;
const FUTURE_DAYS = 42;
/** How likely a stay begins on a free night of a room: nearly full up to next week, thinning out weeks ahead. */
const demand = (night: number) => (night < 7 ? 0.8 : night < 21 ? 0.25 : 0.1);
const stayLength = () => (random.chance(0.1) ? random.int(7, 10) : random.int(1, 4));
/** Hourly stays (15:00–18:00) in a comfort room, on these days from today. */
const HOURLY_DAYS = [-9, -4, 2, 5];
const HOURS = { from: '15:00', to: '18:00' };
const BY_CATEGORY = 12;

type StayStatus = 'checked_out' | 'checked_in' | 'confirmed' | 'inquiry' | 'cancelled';

/** A payment at a moment of the stay: a share of the price, the balance, or back all that was paid. */
interface Payment {
  share: number | 'balance' | 'refund';
  when: 'booking' | 'arrival' | 'departure' | 'cancellation';
  method: 'cash' | 'card' | 'transfer' | 'online';
  note: string;
}

interface Stay {
  /** The room the desk picks; none when booked by category (the hotel's strategy picks it). */
  room?: RoomSpec;
  category: CategoryKey;
  kind: 'nightly' | 'hourly';
  /** Day offsets from today; an hourly stay departs the day it arrives. */
  arrival: number;
  departure: number;
  status: StayStatus;
  guest: Person;
  companion?: Person;
  guestsCount: number;
  tariff: TariffKey;
  discount?: number;
  fees: { early_checkin?: boolean; late_checkout?: boolean };
  source: string;
  notes?: string;
  payments: Payment[];
}

const BOOKING_NOTES = [
  'Поздний заезд, около 23:00',
  'Нужна детская кроватка',
  'Трансфер из аэропорта Мурманск',
  'Годовщина свадьбы: шампанское и цветы в номер',
  'Просит тихий номер',
  'Оплата по счёту от организации',
];
const SOURCES = ['phone', 'phone', 'email', 'online', 'online', 'ota', 'front_desk'];

function statusFor(arrival: number, departure: number): StayStatus {
  if (departure < 0) return random.chance(0.08) ? 'cancelled' : 'checked_out';
  if (departure === 0) return random.chance(0.7) ? 'checked_out' : 'checked_in';
  if (arrival < 0) return 'checked_in';
  if (arrival === 0) return random.chance(0.5) ? 'checked_in' : 'confirmed';
  const roll = random.int(1, 100);
  return roll <= 12 ? 'cancelled' : roll <= 25 ? 'inquiry' : 'confirmed';
}

/** A regular guest free on those nights, if one turns up in a few tries. */
function freeRegular(arrival: number, nights: number): Person | undefined {
  for (let attempt = 0; attempt < 10; attempt++) {
    const regular = random.pick(regulars);
    if (guestNights.isFree(personKey(regular), arrival, nights)) return regular;
  }
  return undefined;
}

function tariffFor(status: StayStatus, nights: number): TariffKey {
  if (nights >= 7) return 'longStay';
  const roll = random.int(1, 100);
  if (roll <= 15 && status !== 'inquiry') return 'nonRefundable';
  return roll <= 45 ? 'breakfast' : 'base';
}

function paymentsFor(status: StayStatus, tariff: TariffKey, arrival: number): Payment[] {
  const atDesk = () => random.pick(['cash', 'card', 'card'] as const);
  if (tariff === 'nonRefundable') {
    return [{ share: 1, when: 'booking', method: 'online', note: 'Оплата по невозвратному тарифу' }];
  }
  const prepayment: Payment = { share: 0.3, when: 'booking', method: 'transfer', note: 'Предоплата 30 %' };
  const roll = random.int(1, 100);
  switch (status) {
    case 'checked_out':
      return roll <= 30
        ? [prepayment, { share: 'balance', when: 'departure', method: atDesk(), note: 'Доплата при выезде' }]
        : [{ share: 1, when: 'arrival', method: atDesk(), note: 'Оплата при заселении' }];
    case 'checked_in':
      if (roll <= 50) return [{ share: 1, when: 'arrival', method: atDesk(), note: 'Оплата при заселении' }];
      return roll <= 80 ? [{ share: 0.5, when: 'arrival', method: atDesk(), note: 'Оплата за первые ночи' }] : [];
    case 'confirmed':
      return roll <= 35 ? [prepayment] : [];
    case 'cancelled':
      return arrival > 0 && roll <= 30
        ? [prepayment, { share: 'refund', when: 'cancellation', method: 'transfer', note: 'Возврат предоплаты' }]
        : [];
    case 'inquiry':
      return [];
  }
}

function planStay(
  room: RoomSpec | undefined,
  category: CategoryKey,
  kind: Stay['kind'],
  arrival: number,
  nights: number,
): Stay {
  const departure = arrival + nights;
  const status = statusFor(arrival, departure);
  // An hourly stay takes its guest's day like a night.
  const guestDays = Math.max(nights, 1);
  const guestsCount = random.int(1, MAX_GUESTS[category]);
  const guest = (random.chance(0.75) && freeRegular(arrival, guestDays)) || newPerson();
  guestNights.take(personKey(guest), arrival, guestDays);
  const companion = guestsCount > 1 && random.chance(0.1) ? freeRegular(arrival, guestDays) : undefined;
  if (companion) guestNights.take(personKey(companion), arrival, guestDays);
  const tariff = kind === 'hourly' ? 'base' : tariffFor(status, nights);
  const fees = room?.extra ?? {};
  return {
    room,
    category,
    kind,
    arrival,
    departure,
    status,
    guest,
    companion,
    guestsCount,
    tariff,
    ...(random.chance(0.1) && { discount: random.pick([5, 10]) }),
    fees: {
      ...(fees.early_checkin_fee && random.chance(0.3) && { early_checkin: true }),
      ...(fees.late_checkout_fee && random.chance(0.3) && { late_checkout: true }),
    },
    source: arrival <= 0 && random.chance(0.15) ? 'walk_in' : random.pick(SOURCES),
    ...(random.chance(0.15) && { notes: random.pick(BOOKING_NOTES) }),
    payments:
      kind === 'hourly'
        ? [{ share: 1, when: 'arrival', method: 'cash', note: 'Оплата почасового проживания' }]
        : paymentsFor(status, tariff, arrival),
  };
}

/**
 * The hourly stays first, in a comfort room; then each room night by night: booked with the day's demand, stays of a
 * few nights, now and then a long one.
 */
function planRoomStays(): Stay[] {
  const stays: Stay[] = [];
  for (const day of HOURLY_DAYS) {
    const room = random.pick(
      ROOMS.filter((spec) => spec.category === 'comfort' && roomNights.isFree(spec.number, day, 1)),
    );
    roomNights.take(room.number, day, 1);
    stays.push(planStay(room, 'comfort', 'hourly', day, 0));
  }
  for (const room of ROOMS) {
    let night = -PAST_DAYS + random.int(0, 2);
    while (night < FUTURE_DAYS) {
      const nights = roomNights.freeRun(room.number, night, stayLength());
      if (nights === 0 || !random.chance(demand(night))) {
        night += 1;
        continue;
      }
      roomNights.take(room.number, night, nights);
      stays.push(planStay(room, room.category, 'nightly', night, nights));
      night += nights + random.pick([0, 0, 1, 2]);
    }
  }
  return stays;
}

// ---- the front desk at work ----

interface HotelContext {
  team: Team;
  rooms: Map<string, string>;
  categories: Categories;
  tariffs: Tariffs;
  minibarItems: string[];
}

interface Booking {
  id: string;
  room_id: string;
  kind: Stay['kind'];
  status: StayStatus;
  price: string;
  paid_amount: string;
  balance: string;
}

interface Task {
  id: string;
  booking_id: string | null;
  assignee_id: string | null;
  checklist?: { id: string }[];
}

const cents = (amount: string) => Math.round(Number(amount) * 100);
const rubles = (amountInCents: number) => (amountInCents / 100).toFixed(2);

/** When a payment was taken, on the day of its moment in the stay; none (now) from today on. */
function paidAt(stay: Stay, when: Payment['when']): string | undefined {
  const [day, time] =
    when === 'booking'
      ? [stay.arrival - 7, '12:00']
      : when === 'arrival'
        ? [stay.arrival, stay.kind === 'hourly' ? HOURS.from : '14:30']
        : [stay.departure, '11:30'];
  return when !== 'cancellation' && day < 0 ? hotelTime(day, time) : undefined;
}

/** Takes a payment (bank transfers are booked by the accountant); answers the booking after it. */
async function takePayment(hotel: HotelContext, desk: Member, stay: Stay, booking: Booking, payment: Payment) {
  const amount =
    payment.share === 'balance'
      ? cents(booking.balance)
      : payment.share === 'refund'
        ? -cents(booking.paid_amount)
        : Math.round((cents(booking.price) * payment.share) / 100) * 100; // whole roubles
  if (amount === 0) return booking;
  const cashier = payment.method === 'transfer' ? hotel.team.accountant : desk;
  const at = paidAt(stay, payment.when);
  const answer = await cashier.api<{ booking: Booking }>('POST', `/bookings/${booking.id}/payments`, {
    amount: rubles(amount),
    method: payment.method,
    note: payment.note,
    ...(at && { paid_at: at }),
  });
  return answer.booking;
}

/** Books the stay and takes it through its life up to its status, with its payments on the way. */
async function bookStay(hotel: HotelContext, desk: Member, stay: Stay): Promise<Booking> {
  const { guest } = stay;
  let booking = await desk.api<Booking>('POST', '/bookings', {
    ...(stay.room
      ? { room_id: hotel.rooms.get(stay.room.number) }
      : { category_id: hotel.categories[stay.category].id }),
    ...(stay.kind === 'hourly'
      ? { start_at: hotelTime(stay.arrival, HOURS.from), end_at: hotelTime(stay.arrival, HOURS.to) }
      : { check_in: dayAt(stay.arrival), check_out: dayAt(stay.departure) }),
    status: stay.status === 'inquiry' ? 'inquiry' : 'confirmed',
    source: stay.source,
    ...(guest.profileId && { guest_id: guest.profileId }),
    guest_last_name: guest.last_name,
    guest_first_name: guest.first_name,
    guest_middle_name: guest.middle_name,
    guest_phone: guest.phone,
    guest_email: guest.email,
    guests_count: stay.guestsCount,
    tariff_id: hotel.tariffs[stay.tariff].id,
    ...(stay.discount && { discount: stay.discount }),
    ...stay.fees,
    ...(stay.notes && { notes: stay.notes }),
  });
  if (stay.companion) await desk.api('POST', `/bookings/${booking.id}/guests`, { guest_id: stay.companion.profileId });
  const pay = async (when: Payment['when']) => {
    for (const payment of stay.payments.filter((planned) => planned.when === when)) {
      booking = await takePayment(hotel, desk, stay, booking, payment);
    }
  };
  const moveTo = async (status: StayStatus, extra?: object) => {
    booking = await desk.api<Booking>('PATCH', `/bookings/${booking.id}`, { status, ...extra });
  };
  await pay('booking');
  if (stay.status === 'checked_in' || stay.status === 'checked_out') {
    await moveTo('checked_in');
    await pay('arrival');
  }
  if (stay.status === 'checked_out') {
    await pay('departure');
    await moveTo('checked_out');
  }
  if (stay.status === 'cancelled') {
    await moveTo('cancelled', { cancel_reason: stay.arrival < 0 ? 'Гость не приехал' : 'Гость отменил поездку' });
    await pay('cancellation');
  }
  return booking;
}

/** The turnover clean the check-out of a booking created (pending, assigned by the hotel's strategy). */
async function turnoverOf(hotel: HotelContext, booking: Booking): Promise<Task> {
  const query = new URLSearchParams({ room_id: booking.room_id, category: 'housekeeping', status: 'pending' });
  const tasks = await hotel.team.manager.api<Task[]>('GET', `/housekeeping?${query}`);
  const task = tasks.find((candidate) => candidate.booking_id === booking.id);
  if (!task) throw new SeedError(`the check-out of booking ${booking.id} created no turnover task`);
  return task;
}

function assigneeOf(hotel: HotelContext, task: Task): Member {
  const worker = task.assignee_id ? hotel.team.byId.get(task.assignee_id) : undefined;
  if (!worker) throw new SeedError(`task ${task.id} was not assigned to a member of the demo staff`);
  return worker;
}

/** Its assignee takes the task on, ticks off the checklist (or its first items), counts the minibar, finishes. */
async function workOn(
  hotel: HotelContext,
  task: Task,
  work: { ticks?: number; minibar?: { item_id: string; quantity: number }[]; finish: boolean },
): Promise<void> {
  const worker = assigneeOf(hotel, task);
  const path = `/housekeeping/${task.id}`;
  await worker.api('PATCH', path, { status: 'in_progress' });
  const { checklist = [] } = await worker.api<Task>('GET', path);
  for (const item of checklist.slice(0, work.ticks ?? checklist.length)) {
    await worker.api('PATCH', `${path}/checklist/${item.id}`, { done: true });
  }
  if (work.minibar) await worker.api('PUT', `${path}/minibar`, { items: work.minibar });
  if (work.finish) await worker.api('PATCH', path, { status: 'done' });
}

/**
 * The planned stays in the order they end, so each room's turnover cleans come in turn: those of past days are
 * done (checklist, minibar), today's are left to the housekeepers. Answers the bookings and today's open cleans.
 */
async function runFrontDesk(hotel: HotelContext, stays: Stay[]) {
  // Days from today to the departure: check-out at 12:00, an hourly stay ends at 18:00.
  const endOf = (stay: Stay) => stay.departure + (stay.kind === 'hourly' ? 0.75 : 0.5);
  const booked: { stay: Stay; booking: Booking }[] = [];
  const todaysTurnovers: Task[] = [];
  for (const [index, stay] of [...stays].sort((a, b) => endOf(a) - endOf(b)).entries()) {
    const booking = await bookStay(hotel, hotel.team.desk[index % hotel.team.desk.length], stay);
    booked.push({ stay, booking });
    if (stay.status !== 'checked_out') continue;
    const turnover = await turnoverOf(hotel, booking);
    if (stay.departure < 0) await workOn(hotel, turnover, { minibar: minibarTaken(hotel.minibarItems), finish: true });
    else todaysTurnovers.push(turnover);
  }
  return { booked, todaysTurnovers };
}

/**
 * Future stays booked by category, the hotel's strategy (`spread`) picking the room, each where the plan still has a
 * room of that category free; the first is an inquiry from the blacklisted guest, which the API flags.
 */
async function bookByCategory(hotel: HotelContext) {
  const numberOf = new Map([...hotel.rooms].map(([number, id]) => [id, number]));
  const booked: { stay: Stay; booking: Booking }[] = [];
  while (booked.length < BY_CATEGORY) {
    const category = random.pick(['standard', 'standard', 'comfort', 'comfort', 'suite'] as const);
    const arrival = random.int(1, 35);
    const nights = random.int(1, 5);
    const free = ROOMS.some((room) => room.category === category && roomNights.isFree(room.number, arrival, nights));
    if (!free) continue;
    const planned = planStay(undefined, category, 'nightly', arrival, nights);
    const stay: Stay =
      booked.length === 0
        ? { ...planned, guest: blacklisted, companion: undefined, status: 'inquiry', payments: [], source: 'phone' }
        : planned;
    const booking = await bookStay(hotel, hotel.team.desk[booked.length % hotel.team.desk.length], stay);
    roomNights.take(numberOf.get(booking.room_id)!, arrival, nights);
    booked.push({ stay, booking });
  }
  return booked;
}

// ---- housekeeping and maintenance ----

/**
 * Today's work: one of this morning's turnover cleans under way (minibar counted), one done, the rest waiting; guests'
 * requests and repairs of every priority, some taken on or finished; a leak reported by security in a free room,
 * which the urgent repair closes.
 */
async function runHousekeeping(
  hotel: HotelContext,
  booked: { stay: Stay; booking: Booking }[],
  todaysTurnovers: Task[],
) {
  const [underWay, cleaned] = todaysTurnovers;
  if (underWay) await workOn(hotel, underWay, { ticks: 3, minibar: minibarTaken(hotel.minibarItems), finish: false });
  if (cleaned) await workOn(hotel, cleaned, { minibar: minibarTaken(hotel.minibarItems), finish: true });

  const { team, rooms } = hotel;
  const inHouse = booked.filter(({ booking }) => booking.status === 'checked_in').map(({ booking }) => booking.room_id);
  if (inHouse.length < 3) throw new SeedError('the plan has too few guests in the house today');
  const requests = [
    {
      by: team.desk[0],
      room_id: inHouse[0],
      category: 'housekeeping',
      priority: 'medium',
      notes: 'Гость просит дополнительные полотенца и подушку',
      work: { finish: true },
    },
    {
      by: team.desk[1],
      room_id: inHouse[1],
      category: 'housekeeping',
      priority: 'urgent',
      notes: 'Гость пролил красное вино на ковёр: нужна химчистка',
      work: { ticks: 2, finish: false },
    },
    {
      by: team.manager,
      room_id: rooms.get('403'),
      category: 'housekeeping',
      priority: 'low',
      notes: 'Генеральная уборка: окна, шторы, ковёр',
    },
    {
      by: team.desk[0],
      room_id: inHouse[2],
      category: 'maintenance',
      priority: 'medium',
      notes: 'Не работает телевизор: нет сигнала',
      work: { ticks: 1, finish: false },
    },
    {
      by: team.housekeepers[0],
      room_id: rooms.get('104'),
      category: 'maintenance',
      priority: 'low',
      notes: 'Перегорела лампа в ванной',
      work: { finish: true },
    },
    {
      by: team.technician,
      room_id: null,
      category: 'maintenance',
      priority: 'low',
      notes: 'Плановая проверка кондиционеров на третьем этаже',
    },
    {
      by: team.manager,
      room_id: rooms.get(REPAIRS.room),
      category: 'maintenance',
      priority: 'medium',
      notes: 'Замена смесителя и герметизация ванной (номер закрыт на три дня)',
    },
    {
      by: team.security,
      room_id: rooms.get(LEAK_ROOM),
      category: 'maintenance',
      priority: 'urgent',
      notes: 'Протечка: вода из-под ванны выходит в коридор',
    },
  ];
  for (const { by, work, ...task } of requests) {
    const created = await by.api<Task>('POST', '/housekeeping', task);
    if (work) await workOn(hotel, created, work);
  }
  return requests.length;
}

// ---- services (scripts/seed/services.ts) ----

/** The nightly guests in the house once the front desk is done, for the day's services. */
function inHouseStays(hotel: HotelContext, booked: { stay: Stay; booking: Booking }[]): InHouseStay[] {
  const numberOf = new Map([...hotel.rooms].map(([number, id]) => [id, number]));
  return booked
    .filter(({ stay, booking }) => booking.status === 'checked_in' && stay.kind === 'nightly')
    .map(({ stay, booking }) => ({
      bookingId: booking.id,
      roomNumber: numberOf.get(booking.room_id)!,
      roomId: booking.room_id,
      guestId: stay.guest.profileId,
      lastName: stay.guest.last_name,
      firstName: stay.guest.first_name,
      email: stay.guest.email,
      phone: stay.guest.phone,
      balance: booking.balance,
    }));
}

// ---- summary ----

/** "3 a, 2 b" for the values of `key`, the most frequent first. */
function tally<T>(items: T[], key: (item: T) => string): string {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .map(([value, count]) => `${count} ${value}`)
    .join(', ');
}

/** What the API now shows, as the manager reads it, with the sign-in details. */
async function printSummary(team: Team, startedAt: number, services: string): Promise<void> {
  const { api } = team.manager;
  const [rooms, guests, bookings, tasks, consumptions] = await Promise.all([
    api<{ status: string }[]>('GET', '/rooms'),
    api<{ passport_on_file: boolean; is_blacklisted: boolean }[]>('GET', '/guests?limit=500'),
    api<Booking[]>('GET', '/bookings?limit=500'),
    api<{ status: string; priority: string; category: string }[]>('GET', '/housekeeping?limit=500'),
    api<unknown[]>('GET', '/minibar/consumptions?limit=500'),
  ]);
  const count = <T>(items: T[], test: (item: T) => boolean) => items.filter(test).length;
  const paid = bookings.filter((booking) => cents(booking.paid_amount) > 0);
  const openTasks = tasks.filter((task) => task.status === 'pending' || task.status === 'in_progress');
  const seconds = ((Date.now() - startedAt) / 1000).toFixed(1);
  console.log(`Demo hotel ${team.owner.hotelSlug} ready in ${seconds} s; today is ${today} in its time zone (Europe/Moscow).
  Rooms     ${rooms.length}: ${tally(rooms, (room) => room.status)}
  Guests    ${guests.length} profiles, ${count(guests, (guest) => guest.passport_on_file)} with passport data, \
${count(guests, (guest) => guest.is_blacklisted)} blacklisted
  Bookings  ${bookings.length} arriving ${dayAt(-PAST_DAYS)} to ${dayAt(FUTURE_DAYS)}: ${tally(bookings, (b) => b.status)}
            ${count(bookings, (booking) => booking.kind === 'hourly')} hourly, ${BY_CATEGORY} booked by category; \
${count(paid, (booking) => cents(booking.balance) <= 0)} paid in full, ${count(paid, (b) => cents(b.balance) > 0)} in part
  Tasks     ${tasks.length}: ${tally(tasks, (task) => task.status)}
            open: ${tally(openTasks, (task) => `${task.priority} ${task.category}`)}
  Minibar   ${MINIBAR.length} items in stock, ${consumptions.length} consumptions recorded
${services}

Sign in with POST ${API_URL}/api/auth/login (docs: ${API_URL}/api/docs), every account with the password ${PASSWORD}:
${[...team.byId.values()].map(({ email, role, name }) => `  ${email.padEnd(26)} ${role.padEnd(13)} ${name}`).join('\n')}`);
}

// ---- the demo ----

async function main(): Promise<void> {
  const startedAt = Date.now();
  // Drawn first, so that the plan does not change with the draws made on the way.
  const stays = planRoomStays();
  await assertApiReachable();
  const db = await openDatabase();
  try {
    await registerOwner();
    await confirmEmail(db, OWNER.email);
  } finally {
    await db.destroy();
  }
  const owner = await signIn(OWNER.email);
  await configureHotel(owner);
  const categories = await createCategories(owner);
  const rooms = await createRooms(owner, categories);
  const tariffs = await createTariffs(owner);
  await createRatePeriods(owner, categories);
  await createRateOverrides(owner, categories);

  const team = await hireStaff(owner);
  await createChecklistTemplates(team.manager, categories);
  const minibarItems = await stockMinibar(team.manager, team.housekeepers[0]);
  await createGuestProfiles(team);

  const services = { team, rooms };
  const setup = await setUpServices(services);

  const hotel: HotelContext = { team, rooms, categories, tariffs, minibarItems };
  const { booked, todaysTurnovers } = await runFrontDesk(hotel, stays);
  // Closed now: the past check-outs above would have made the room dirty, then clean, again.
  await team.manager.api('PATCH', `/rooms/${rooms.get(REPAIRS.room)}/status`, {
    status: 'maintenance',
    maintenance_from: new Date().toISOString(),
    maintenance_to: new Date(Date.now() + REPAIRS.days * DAY_MS).toISOString(),
  });
  booked.push(...(await bookByCategory(hotel)));
  await runHousekeeping(hotel, booked, todaysTurnovers);
  const day = await runServicesDay(services, setup, inHouseStays(hotel, booked));
  await printSummary(team, startedAt, servicesSummary(setup, day));
}

main().catch((error: unknown) => {
  console.error(error instanceof SeedError ? `seed: ${error.message}` : error);
  process.exit(1);
});
