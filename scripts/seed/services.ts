/**
 * The demo hotel's services beyond rooms and bookings, made through the API the way staff and guests would: payment
 * methods, a YooKassa gateway on the dev sandbox, deposits, the booking widget, rental objects, a paired desk, Wi-Fi,
 * TV, the staff chat, room service, reviews, loyalty and Web Push to the dev push service.
 *
 *   YOOKASSA_SANDBOX_URL  the YooKassa sandbox of the dev stack (default http://127.0.0.1:4570)
 *   PUSH_INBOX_URL        the dev push service's inbox (default http://localhost:4572)
 *   MAIL_CATCHER_URL      the mail catcher (default http://localhost:1080), where the review invitation is read
 *   APP_URL               the front end the API's e-mailed links point at (default http://localhost:5173)
 */
import { randomBytes } from 'node:crypto';
import { DEV_PORTS } from '../stack/ports';
import { API_URL, ApiError, dayAt, hotelTime, request, SeedError, type Member, type Team } from './support';

const YOOKASSA_SANDBOX_URL = (process.env.YOOKASSA_SANDBOX_URL ?? `http://127.0.0.1:${DEV_PORTS.yookassa}`).replace(
  /\/+$/,
  '',
);
const PUSH_INBOX_URL = (process.env.PUSH_INBOX_URL ?? `http://localhost:${DEV_PORTS.pushInbox}`).replace(/\/+$/, '');
const MAIL_CATCHER_URL = (process.env.MAIL_CATCHER_URL ?? 'http://localhost:1080').replace(/\/+$/, '');
const APP_URL = (process.env.APP_URL ?? 'http://localhost:5173').replace(/\/+$/, '');

/** The demo hotel's shop at the sandbox (YooKassa shop ids are numbers). */
const DEMO_SHOP = { shopId: '506070', secretKey: 'test_siyanie_demo_secret_key' };
/** Typed as a guest types it; the API sends YooKassa's receipt its digits (`79995550101`). */
const WIDGET_GUEST_PHONE = '+7 999 555-01-01';
/** Where the widget and the deposit send the guest back after paying (the hotel's site). */
const HOTEL_SITE = 'https://siyanie.demo';

/** A guest in the house today, as the front desk left them. */
export interface InHouseStay {
  bookingId: string;
  roomNumber: string;
  roomId: string;
  guestId: string | undefined;
  lastName: string;
  firstName: string;
  email: string | null;
  phone: string;
  balance: string;
}

export interface ServicesHotel {
  team: Team;
  rooms: Map<string, string>;
}

// ---- waiting for what the worker and the sandbox do ----

/** Asks `probe` every half second until it answers something, for at most `timeoutMs`. */
async function waitFor<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answer = await probe();
    if (answer) return answer;
    if (Date.now() > deadline) throw new SeedError(`gave up waiting for ${what} after ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

async function fetchOk(url: string, init?: RequestInit): Promise<Response> {
  const response = await fetch(url, { redirect: 'manual', ...init }).catch((error: Error) => {
    throw new SeedError(`${init?.method ?? 'GET'} ${url} failed (${error.message}): is \`npm run dev\` running?`);
  });
  if (response.status >= 400) {
    throw new SeedError(`${init?.method ?? 'GET'} ${url} answered ${response.status}: ${await response.text()}`);
  }
  return response;
}

// ---- the YooKassa sandbox: kept in one place, as it is the sandbox's own protocol ----

/**
 * Opens the demo shop at the sandbox with its secret key and the API's notification address, as a shop is opened
 * in a YooKassa account (the sandbox's control route `PUT /_fake/shops/:shopId`).
 */
async function openSandboxShop(): Promise<void> {
  await fetchOk(`${YOOKASSA_SANDBOX_URL}/_fake/shops/${DEMO_SHOP.shopId}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      secret_key: DEMO_SHOP.secretKey,
      webhook_url: `${API_URL}/api/payments/yookassa/notifications`,
    }),
  });
}

/** What the guest does on the sandbox's payment page: picks the first test card offered (one that pays) and pays. */
async function payAtSandbox(confirmationUrl: string): Promise<void> {
  const page = await (await fetchOk(confirmationUrl)).text();
  const card = /<option value="([^"]+)"/.exec(page)?.[1];
  if (!card) throw new SeedError(`no test card offered on the payment page ${confirmationUrl}`);
  const paid = await fetchOk(confirmationUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ card }).toString(),
  });
  if (paid.status !== 303) throw new SeedError(`the payment page answered ${paid.status}, not the way back`);
}

// ---- set up before the front desk opens (the owner and the manager) ----

export interface ServicesSetup {
  paymentMethods: number;
  rentalObjects: { id: string; name: string }[];
  workstation: { id: string; name: string; credential: string };
  wifiSecretHint: string;
  menuItems: { id: string; name: string }[];
}

const PAYMENT_METHODS = [
  { name: 'Наличные', type: 'cash' },
  { name: 'Банковская карта', type: 'card' },
  { name: 'Безналичный расчёт', type: 'transfer' },
  { name: 'Онлайн-оплата (ЮKassa)', type: 'online' },
  { name: 'Подарочный сертификат', type: 'other', is_active: false },
];

/**
 * What the hotel rents out: the new hotel's draft sauna and conference hall (found by their icons) made the demo's
 * and opened, and a snowmobile added; the draft tennis court stays a draft (it is Murmansk).
 */
const RENTAL_OBJECTS = [
  {
    draftIcon: 'sauna',
    name: 'Баня на дровах',
    icon: 'sauna',
    color: '#8d5524',
    price_per_hour: 2500,
    price_per_day: 12000,
    open_hour: 10,
    close_hour: 23,
    buffer_minutes: 60,
  },
  {
    draftIcon: 'conference',
    name: 'Конференц-зал «Полярный»',
    icon: 'conference',
    color: '#1e88e5',
    price_per_hour: 3000,
    price_per_day: 20000,
  },
  {
    draftIcon: undefined,
    name: 'Снегоход Yamaha',
    icon: 'snowmobile',
    color: '#43a047',
    price_per_hour: 4000,
    price_per_day: 15000,
  },
];

async function openRentalObjects(owner: Member) {
  const drafts = await owner.api<{ id: string; icon: string; is_active: boolean }[]>('GET', '/rental-objects');
  const opened = [];
  for (const [index, { draftIcon, ...object }] of RENTAL_OBJECTS.entries()) {
    const draft = drafts.find((candidate) => !candidate.is_active && candidate.icon === draftIcon);
    const body = { ...object, is_active: true, sort_order: index + 1 };
    const saved = draft
      ? await owner.api<{ id: string }>('PATCH', `/rental-objects/${draft.id}`, body)
      : await owner.api<{ id: string }>('POST', '/rental-objects', body);
    opened.push({ id: saved.id, name: object.name });
  }
  return opened;
}

const MENU = [
  {
    category: 'Завтраки',
    items: [
      { name: 'Сырники со сметаной', price: 450, description: 'Три сырника, сметана, варенье из морошки' },
      { name: 'Омлет с лососем', price: 590 },
      { name: 'Каша овсяная с ягодами', price: 350 },
    ],
  },
  {
    category: 'Горячее',
    items: [
      { name: 'Уха по-поморски', price: 690, description: 'Треска, палтус, сёмга' },
      { name: 'Оленина с брусничным соусом', price: 1450 },
      { name: 'Пельмени из трески', price: 720 },
    ],
  },
  {
    category: 'Напитки',
    items: [
      { name: 'Чай с чабрецом, чайник', price: 300 },
      { name: 'Морс клюквенный 0,5 л', price: 250 },
      { name: 'Кофе капучино', price: 280, is_available: false },
    ],
  },
];

/** What the owner sets up before the front desk books: money, the widget, rentals, the desk, Wi-Fi, the menu. */
export async function setUpServices({ team, rooms }: ServicesHotel): Promise<ServicesSetup> {
  const { owner, manager } = team;
  for (const [index, method] of PAYMENT_METHODS.entries()) {
    await owner.api('POST', '/payment-methods', { ...method, sort_order: index + 1 });
  }
  await openSandboxShop();
  await owner.api('POST', '/payment-gateways', {
    provider: 'yookassa',
    shop_id: DEMO_SHOP.shopId,
    secret_key: DEMO_SHOP.secretKey,
    test_mode: true,
    auto_confirm_on_payment: true,
    return_url: `${HOTEL_SITE}/oplata`,
  });
  await owner.api('PATCH', '/payment-settings', {
    release_requires_checkout: true,
    hold_expiry_action: 'release',
    online_payment_ttl_minutes: 60,
    deduction_presets: [
      { name: 'Минибар', amounts: [150, 300, 600] },
      { name: 'Поздний выезд', amounts: [1000, 1500] },
      { name: 'Порча имущества', amounts: [1000, 3000, 5000] },
    ],
  });
  // On before the first check-out: every stay of a guest with a profile earns points as it checks out.
  await owner.api('PATCH', '/loyalty/settings', {
    enabled: true,
    tier_basis: 'nights',
    point_value: 1,
    expiry_months: 24,
    tiers: [
      { name: 'Северный', threshold: 0, earn_rate: 5 },
      { name: 'Полярный', threshold: 10, earn_rate: 7 },
      { name: 'Сияние', threshold: 30, earn_rate: 10 },
    ],
  });
  await owner.api('PATCH', '/widget-settings', {
    is_enabled: true,
    allowed_origins: [HOTEL_SITE],
    services: [
      { code: 'breakfast', name: 'Завтрак', price: 700, description: 'Шведский стол, 7:00–10:30' },
      { code: 'transfer', name: 'Трансфер из аэропорта', price: 2500 },
    ],
  });
  const rentalObjects = await openRentalObjects(owner);
  const workstation = await pairDemoDesk(owner);
  await owner.api('PATCH', '/wifi-settings', {
    enabled: true,
    auth_method: 'room+lastname',
    session_hours: 24,
    devices_per_stay: 3,
  });
  const secret = await owner.api<{ portal_secret: string; portal_secret_hint: string }>(
    'POST',
    '/wifi-settings/portal-secret',
  );
  wifiPortalSecret = secret.portal_secret;
  const menuItems = await createMenu(manager, rooms);
  return {
    paymentMethods: PAYMENT_METHODS.length,
    rentalObjects,
    workstation,
    wifiSecretHint: secret.portal_secret_hint,
    menuItems,
  };
}

/** Kept for the captive portal's call later in the run; shown once by the API and never printed. */
let wifiPortalSecret = '';

/**
 * The front desk's workstation: the owner adds it with its fiscal register and printer and gets a pair code; the
 * desk's agent exchanges the code for its credential (as the agent does on its first start).
 */
async function pairDemoDesk(owner: Member) {
  const name = 'Стойка регистрации';
  const workstation = await owner.api<{ id: string }>('POST', '/workstations', { name });
  const devices = `/workstations/${workstation.id}/devices`;
  await owner.api('POST', devices, {
    name: 'Касса АТОЛ 30Ф',
    type: 'fiscal_register',
    connection: 'usb',
    config: { dto_device_id: 'atol-30f-demo' },
  });
  await owner.api('POST', devices, { name: 'Принтер Pantum', type: 'printer', connection: 'windows' });
  const { pair_code } = await owner.api<{ pair_code: string }>('POST', `/workstations/${workstation.id}/pair-code`);
  const paired = await request<{ credential: string }>('POST', '/api/agents/pair', {
    pair_code,
    machine_name: 'RECEPTION-PC',
  });
  return { id: workstation.id, name, credential: paired.credential };
}

async function createMenu(manager: Member, rooms: Map<string, string>) {
  await manager.api('PATCH', '/room-service/settings', {
    enabled: true,
    // Around the clock (the same opening and closing time).
    opens_at: '00:00',
    closes_at: '00:00',
    delivery_fee: 200,
    minimum_order: 300,
    room_ids: [...rooms.values()],
  });
  const items = [];
  for (const [categoryIndex, { category, items: dishes }] of MENU.entries()) {
    const created = await manager.api<{ id: string }>('POST', '/room-service/menu/categories', {
      name: category,
      sort_order: categoryIndex + 1,
    });
    for (const [index, dish] of dishes.entries()) {
      const item = await manager.api<{ id: string }>('POST', '/room-service/menu/items', {
        ...dish,
        category_id: created.id,
        sort_order: index + 1,
      });
      items.push({ id: item.id, name: dish.name });
    }
  }
  return items;
}

// ---- the day's services (after the front desk) ----

export interface ServicesDay {
  pushDevices: number;
  rentalBookings: number;
  deposit: { room: string; amount: string; status: string };
  widgetBooking: { id: string; status: string; paid: string; guest: string };
  wifiGuest: { room: string; authorized: boolean; until: string };
  tvTokenHint: string;
  chatMessages: number;
  roomServiceOrder: { room: string; total: string; charges: string };
  review: { id: string; overall: number; room: string };
  loyaltyGuest: { name: string; balance: number; tier: string };
}

/**
 * Everything the hotel's people and guests do today, in a run that takes each to its end: pushes to the staff's
 * devices, rentals, a deposit paid by card, a widget booking paid online, a guest online on the Wi-Fi, the TV set up,
 * the chat, a room-service order delivered to the bill, a review published, loyalty points.
 */
export async function runServicesDay(
  hotel: ServicesHotel,
  setup: ServicesSetup,
  inHouse: InHouseStay[],
): Promise<ServicesDay> {
  const { team } = hotel;
  if (inHouse.length < 5) throw new SeedError('the plan has too few guests in the house today for the services');
  const [depositStay, roomServiceStay, wifiStay, reviewStay, pointsStay] = pickStays(inHouse);
  // Pushes from here on land at the dev push service, decrypted on its page.
  const pushDevices = await subscribeStaffDevices(team);
  const rentalBookings = await bookRentals(team, setup, inHouse);
  const [deposit, widgetBooking, review] = await Promise.all([
    payDeposit(team, depositStay),
    widgetBookingPaidOnline(team),
    publishedReview(team, reviewStay),
  ]);
  const wifiGuest = await connectToWifi(team, wifiStay);
  const tvTokenHint = await setUpTv(team, setup, hotel.rooms);
  const chatMessages = await chatHistory(team);
  const roomServiceOrder = await deliverRoomService(team, setup, roomServiceStay);
  // The reviewer has checked out: points go on a stay still open.
  const loyaltyGuest = await loyaltyOf(
    team,
    pointsStay,
    inHouse.filter((stay) => stay !== reviewStay),
  );
  return {
    pushDevices,
    rentalBookings,
    deposit,
    widgetBooking,
    wifiGuest,
    tvTokenHint,
    chatMessages,
    roomServiceOrder,
    review,
    loyaltyGuest,
  };
}

/** Five different guests in the house: the review's has an e-mail, the points' a profile. */
function pickStays(inHouse: InHouseStay[]): InHouseStay[] {
  const left = [...inHouse];
  const take = (test: (stay: InHouseStay) => boolean) => {
    const index = left.findIndex(test);
    if (index < 0) throw new SeedError('the plan has no guest in the house to show a service with');
    return left.splice(index, 1)[0];
  };
  const review = take((stay) => stay.email !== null);
  const points = take((stay) => stay.guestId !== undefined);
  const [deposit, roomService, wifi] = [take(() => true), take(() => true), take(() => true)];
  return [deposit, roomService, wifi, review, points];
}

async function subscribeStaffDevices(team: Team): Promise<number> {
  for (const member of team.byId.values()) {
    const browser = await (
      await fetchOk(`${PUSH_INBOX_URL}/subscriptions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ label: member.email }),
      })
    ).json();
    await member.api('POST', '/push/subscribe', browser);
  }
  return team.byId.size;
}

async function bookRentals(team: Team, setup: ServicesSetup, inHouse: InHouseStay[]): Promise<number> {
  const [sauna, hall, snowmobile] = setup.rentalObjects;
  const [desk] = team.desk;
  const guest = inHouse[inHouse.length - 1];
  const bookings = [
    {
      rental_object_id: sauna.id,
      kind: 'hourly',
      start_at: hotelTime(0, '19:00'),
      end_at: hotelTime(0, '21:00'),
      guest_name: `${guest.lastName} ${guest.firstName}`,
      guest_phone: guest.phone,
      booking_id: guest.bookingId,
      comment: 'Веники берёзовые, травяной чай',
    },
    {
      rental_object_id: sauna.id,
      kind: 'hourly',
      start_at: hotelTime(1, '15:00'),
      end_at: hotelTime(1, '18:00'),
      guest_name: 'Зайцев Павел',
      guest_phone: '+7 921 555-01-02',
      source: 'phone',
    },
    {
      rental_object_id: hall.id,
      kind: 'daily',
      date_from: dayAt(3),
      date_to: dayAt(4),
      guest_name: 'ООО «Арктикнефть», Борисова Ирина',
      guest_phone: '+7 815 244-10-20',
      guest_email: 'events@arktikneft.example',
      comment: 'Семинар на 20 человек, проектор и кофе-брейк',
      source: 'phone',
    },
    {
      rental_object_id: snowmobile.id,
      kind: 'hourly',
      start_at: hotelTime(2, '11:00'),
      end_at: hotelTime(2, '13:00'),
      guest_name: 'Комаров Олег',
      guest_phone: '+7 900 555-00-11',
      source: 'walk_in',
    },
  ];
  for (const booking of bookings) await desk.api('POST', '/rental-bookings', booking);
  // A guest books the sauna on the hotel's site.
  await request('POST', `/api/widget/${desk.hotelSlug}/rental-bookings`, {
    rental_object_id: sauna.id,
    kind: 'hourly',
    start_at: hotelTime(2, '18:00'),
    end_at: hotelTime(2, '20:00'),
    guest_name: 'Титова Дарья',
    guest_phone: '+7 911 555-20-30',
    guest_email: 'daria.titova@example.com',
  });
  return bookings.length + 1;
}

/** A card hold for the stay: the desk asks for it, the guest pays on the provider's page, the hold is confirmed. */
async function payDeposit(team: Team, stay: InHouseStay) {
  const [desk] = team.desk;
  const path = `/bookings/${stay.bookingId}/deposit`;
  await desk.api('POST', path, {
    kind: 'hold',
    amount: '5000',
    guest_email: stay.email ?? undefined,
    return_url: `${HOTEL_SITE}/depozit`,
  });
  type Deposit = { status: string; confirmation_url: string | null; amount: string };
  const created = await waitFor('the deposit’s payment page', async () => {
    const deposit = await desk.api<Deposit>('GET', path);
    return deposit.confirmation_url !== null && deposit;
  });
  await payAtSandbox(created.confirmation_url!);
  const held = await waitFor('the deposit held on the guest’s card', async () => {
    const deposit = await desk.api<Deposit>('GET', path);
    return deposit.status === 'hold_confirmed' && deposit;
  });
  return { room: stay.roomNumber, amount: held.amount, status: held.status };
}

interface CategoryOffer {
  category_id: string;
  name: string;
  available: boolean;
}

/** A guest books on the hotel's site for a weekend a month ahead and pays online; the payment confirms the booking. */
async function widgetBookingPaidOnline(team: Team) {
  const slug = team.owner.hotelSlug;
  const [from, to] = [dayAt(30), dayAt(32)];
  const offers = await request<{ categories: CategoryOffer[] }>(
    'GET',
    `/api/widget/${slug}/availability?${new URLSearchParams({ from, to, guests: '2' })}`,
  );
  const offer = offers.categories.find((category) => category.available);
  if (!offer) throw new SeedError(`the widget offers no room from ${from} to ${to}`);
  const guest = { last: 'Белова', first: 'Ольга' };
  const answer = await request<{
    booking: { id: string };
    payment: { id: string; confirmation_url: string | null } | null;
  }>('POST', `/api/widget/${slug}/bookings`, {
    category_id: offer.category_id,
    check_in: from,
    check_out: to,
    guests_count: 2,
    guest_last_name: guest.last,
    guest_first_name: guest.first,
    guest_phone: WIDGET_GUEST_PHONE,
    guest_email: 'olga.belova@example.com',
    services: ['breakfast'],
    comment: 'Приедем на машине, нужна парковка',
    return_url: `${HOTEL_SITE}/spasibo`,
  });
  if (!answer.payment) throw new SeedError('the widget booking came without a payment');
  // A busy worker may answer before the provider's page exists: the desk then sends the guest its link.
  const page =
    answer.payment.confirmation_url ??
    (await waitFor('the widget payment’s page', async () => {
      type OnlinePayment = { id: string; confirmation_url: string | null };
      const payments = await team.desk[0].api<OnlinePayment[]>('GET', `/bookings/${answer.booking.id}/online-payments`);
      return payments.find((payment) => payment.id === answer.payment!.id)?.confirmation_url ?? undefined;
    }));
  await payAtSandbox(page);
  type Booking = { status: string; paid_amount: string };
  const booking = await waitFor('the widget booking confirmed by its payment', async () => {
    const read = await team.manager.api<Booking>('GET', `/bookings/${answer.booking.id}`);
    return read.status === 'confirmed' && read;
  });
  return {
    id: answer.booking.id,
    status: booking.status,
    paid: booking.paid_amount,
    guest: `${guest.last} ${guest.first}, ${offer.name}`,
  };
}

/** The captive-portal controller lets a guest online: room number and surname, with its portal secret. */
async function connectToWifi(team: Team, stay: InHouseStay) {
  const response = await fetchOk(`${API_URL}/api/wifi-auth/verify`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${wifiPortalSecret}` },
    body: JSON.stringify({
      hotel: team.owner.hotelSlug,
      room: stay.roomNumber,
      last_name: stay.lastName,
      client_mac: 'A4:83:E7:12:34:56',
    }),
  });
  const answer = (await response.json()) as { authorized: boolean; until: string };
  return { room: stay.roomNumber, authorized: answer.authorized, until: answer.until };
}

/**
 * The TV system's poll token: issued by the service where it can (POST tl-token, answered once), else set by the
 * hotel (PATCH settings). Kept in one place: which of the two the API offers is its own choice.
 */
async function issueTvToken(owner: Member): Promise<string> {
  try {
    const issued = await owner.api<{ tl_token_hint?: string; token_hint?: string }>('POST', '/tv-integration/tl-token');
    return issued.tl_token_hint ?? issued.token_hint ?? 'issued';
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 404)) throw error;
  }
  const token = randomBytes(32).toString('base64url');
  const settings = await owner.api<{ tl_token_hint: string }>('PATCH', '/tv-integration/settings', {
    tl_token: token,
  });
  return settings.tl_token_hint;
}

/** The in-room TVs greet guests by name: the TV server on the hotel's network, reached through the desk's agent. */
async function setUpTv(team: Team, setup: ServicesSetup, rooms: Map<string, string>): Promise<string> {
  const hint = await issueTvToken(team.owner);
  await team.owner.api('PATCH', '/tv-integration/settings', {
    enabled: true,
    connection_type: 'agent',
    agent_workstation_id: setup.workstation.id,
    server_url: 'http://192.168.10.20:8080',
    default_language: 'ru',
    netup_room_number: Object.fromEntries([...rooms].map(([number, id]) => [id, `R${number}`])),
  });
  return hint;
}

/** A morning on the staff chat: the shift's group, a direct conversation, reactions and read markers. */
async function chatHistory(team: Team): Promise<number> {
  const { manager, desk, housekeepers, technician, security } = team;
  type Room = { id: string };
  type Message = { id: string };
  const shift = await manager.api<Room>('POST', '/chat/rooms', {
    type: 'group',
    name: 'Смена',
    member_ids: [...desk, ...housekeepers, technician, security].map((member) => member.id),
  });
  const say = (member: Member, room: Room, text: string) =>
    member.api<Message>('POST', `/chat/rooms/${room.id}/messages`, { text });
  const lines: [Member, string][] = [
    [manager, 'Доброе утро! Сегодня много выездов, горничные — начинаем с третьего этажа.'],
    [housekeepers[0], 'Принято, 301 и 303 уже в работе.'],
    [desk[0], 'Гость из 204 просит поздний выезд до 14:00, согласовали.'],
    [security, 'В 302 протечка под ванной, воду перекрыл. Нужен техник.'],
    [technician, 'Иду, буду через 10 минут.'],
    [housekeepers[1], 'В 403 генеральная уборка после обеда.'],
    [desk[1], 'Вечером баня забронирована на 19:00, проверьте, пожалуйста, дрова.'],
  ];
  const sent: Message[] = [];
  for (const [member, text] of lines) sent.push(await say(member, shift, text));
  await desk[0].api('POST', `/chat/messages/${sent[0].id}/reactions`, { emoji: '👍' });
  await technician.api('POST', `/chat/messages/${sent[3].id}/reactions`, { emoji: '🔧' });
  for (const member of [desk[0], housekeepers[0], technician]) {
    await member.api('POST', `/chat/rooms/${shift.id}/read`, { message_id: sent[sent.length - 1].id });
  }
  const direct = await manager.api<Room>('POST', '/chat/rooms', { type: 'direct', member_ids: [technician.id] });
  await say(manager, direct, 'Виктор, после 302 посмотрите, пожалуйста, кондиционер в 301.');
  await say(technician, direct, 'Хорошо, запчасти для 302 закажу сегодня.');
  return lines.length + 2;
}

/**
 * A guest orders from the room with the stay's code (what the desk hands out at check-in), the kitchen takes the
 * order to the door, and the delivery goes on the stay's bill. The guest's next order, by phone, is accepted.
 */
async function deliverRoomService(team: Team, setup: ServicesSetup, stay: InHouseStay) {
  const [desk] = team.desk;
  const { code } = await desk.api<{ code: string }>('GET', `/room-service/stays/${stay.bookingId}/code`);
  const guestHeaders = {
    'content-type': 'application/json',
    'x-room': encodeURIComponent(stay.roomNumber),
    'x-stay-code': code,
  };
  const guestApi = `${API_URL}/api/hotels/${desk.hotelSlug}/room-service/guest`;
  await fetchOk(`${guestApi}/config`, { headers: guestHeaders });
  const item = (name: string) => setup.menuItems.find((candidate) => candidate.name === name)!.id;
  const placed = await fetchOk(`${guestApi}/orders`, {
    method: 'POST',
    headers: guestHeaders,
    body: JSON.stringify({
      items: [
        { item_id: item('Уха по-поморски'), quantity: 2 },
        { item_id: item('Морс клюквенный 0,5 л'), quantity: 2 },
      ],
      note: 'Без лука, пожалуйста',
    }),
  });
  const { order } = (await placed.json()) as { order: { id: string; total: string } };
  for (const status of ['accepted', 'preparing', 'delivered']) {
    await desk.api('POST', `/room-service/orders/${order.id}/status`, { status });
  }
  const charges = await desk.api<{ amount: string }[]>('GET', `/bookings/${stay.bookingId}/charges`);
  // Tomorrow's breakfast, ordered by phone, is accepted by the kitchen.
  const cooking = await desk.api<{ id: string }>('POST', '/room-service/orders', {
    booking_id: stay.bookingId,
    items: [{ item_id: item('Сырники со сметаной'), quantity: 1 }],
    note: 'Заказ по телефону',
  });
  await desk.api('POST', `/room-service/orders/${cooking.id}/status`, { status: 'accepted' });
  const billed = charges.reduce((sum, charge) => sum + Math.round(Number(charge.amount) * 100), 0);
  return { room: stay.roomNumber, total: order.total, charges: (billed / 100).toFixed(2) };
}

interface CaughtMessage {
  subject: string;
  text: string;
}

/**
 * Reviews: invitations on (sent at once for the demo), a guest checks out, follows the link in the e-mail and rates
 * the stay; the manager publishes the review and replies. Then invitations go two hours after a check-out.
 */
async function publishedReview(team: Team, stay: InHouseStay) {
  const { manager } = team;
  const [desk] = team.desk;
  await manager.api('PATCH', '/review-settings', {
    invitations_enabled: true,
    invitation_delay_hours: 0,
    auto_publish: false,
  });
  if (Number(stay.balance) > 0) {
    await desk.api('POST', `/bookings/${stay.bookingId}/payments`, {
      amount: stay.balance,
      method: 'card',
      note: 'Доплата при выезде',
    });
  }
  await desk.api('PATCH', `/bookings/${stay.bookingId}`, { status: 'checked_out' });
  const link = `${APP_URL}/review?token=`;
  const token = await waitFor(`the review invitation to ${stay.email}`, async () => {
    const messages = (await (
      await fetchOk(`${MAIL_CATCHER_URL}/api/messages?to=${encodeURIComponent(stay.email!)}`)
    ).json()) as CaughtMessage[];
    const word = messages
      .flatMap((message) => message.text.split(/\s+/))
      .find((candidate) => candidate.startsWith(link));
    return word && new URL(word).searchParams.get('token');
  });
  await request('GET', `/api/review-links/${token}`);
  const ratings = { overall: 5, cleanliness: 5, staff: 5, comfort: 4, value: 5 };
  await request('POST', `/api/review-links/${token}/review`, {
    ...ratings,
    comment: 'Тёплый номер, вид на залив и северное сияние прямо из окна. Завтраки отличные!',
  });
  await manager.api('PATCH', '/review-settings', { invitation_delay_hours: 2 });
  type Review = { id: string; booking_id: string };
  const review = await waitFor('the review in the list', async () =>
    (await manager.api<Review[]>('GET', '/reviews')).find((candidate) => candidate.booking_id === stay.bookingId),
  );
  await manager.api('PATCH', `/reviews/${review.id}`, { status: 'published' });
  await manager.api('PUT', `/reviews/${review.id}/reply`, {
    text: 'Спасибо, что выбрали «Северное сияние»! Будем рады видеть вас снова.',
  });
  return { id: review.id, overall: ratings.overall, room: stay.roomNumber };
}

type LoyaltyAccount = { balance: number; tier: { name: string } | null };

/**
 * Points: every stay of a guest with a profile earned them at check-out. The guest in the house with the most
 * spends some on the current stay's bill; a guest whose stays earned nothing yet is welcomed with bonus points.
 */
async function loyaltyOf(team: Team, stay: InHouseStay, inHouse: InHouseStay[]) {
  const { manager } = team;
  const accountOf = (guestId: string) => manager.api<LoyaltyAccount>('GET', `/guests/${guestId}/loyalty`);
  let best = { stay, account: await accountOf(stay.guestId!) };
  for (const candidate of inHouse.filter((other) => other.guestId && other.guestId !== stay.guestId)) {
    const account = await accountOf(candidate.guestId!);
    if (account.balance > best.account.balance) best = { stay: candidate, account };
  }
  if (best.account.balance === 0) {
    await manager.api('POST', `/guests/${best.stay.guestId}/loyalty/adjustments`, {
      points: 500,
      note: 'Приветственные баллы участника программы',
    });
  } else {
    const points = Math.min(300, best.account.balance);
    await team.desk[0].api('POST', `/bookings/${best.stay.bookingId}/loyalty-redemptions`, { points });
  }
  const account = await accountOf(best.stay.guestId!);
  return {
    name: `${best.stay.lastName} ${best.stay.firstName} (номер ${best.stay.roomNumber})`,
    balance: account.balance,
    tier: account.tier?.name ?? '—',
  };
}

/** The summary's lines about the services, with where to see them. */
export function servicesSummary(setup: ServicesSetup, day: ServicesDay): string {
  const rental = setup.rentalObjects.map((object) => object.name).join(', ');
  const lines = [
    `Payments  ${setup.paymentMethods} payment methods; YooKassa shop ${DEMO_SHOP.shopId} at the sandbox ${YOOKASSA_SANDBOX_URL}`,
    `          deposit ${day.deposit.amount} held on a card (room ${day.deposit.room}, ${day.deposit.status})`,
    `Widget    ${day.widgetBooking.guest}: paid ${day.widgetBooking.paid} online, ${day.widgetBooking.status} (booking ${day.widgetBooking.id})`,
    `Rentals   ${setup.rentalObjects.length} objects (${rental}), ${day.rentalBookings} bookings`,
    `Desk      ${setup.workstation.name}: paired, offline until its agent runs:`,
    `            npm run agent -- --credential ${setup.workstation.credential}`,
    `Wi-Fi     room + surname, portal secret ${setup.wifiSecretHint}; the guest of room ${day.wifiGuest.room} online until ${day.wifiGuest.until}`,
    `TV        through the desk's agent, poll token ${day.tvTokenHint}`,
    `Chat      ${day.chatMessages} messages in the group «Смена» and a direct room`,
    `Room svc  ${setup.menuItems.length} dishes; an order of ${day.roomServiceOrder.total} delivered to room ${day.roomServiceOrder.room}, its bill ${day.roomServiceOrder.charges}`,
    `Reviews   one from room ${day.review.room}, ${day.review.overall}★, published with a reply`,
    `Loyalty   ${day.loyaltyGuest.name}: ${day.loyaltyGuest.balance} points, tier ${day.loyaltyGuest.tier}`,
    `Push      ${day.pushDevices} staff devices subscribed at the dev push service: ${PUSH_INBOX_URL}`,
  ];
  return lines.map((line) => `  ${line}`).join('\n');
}
