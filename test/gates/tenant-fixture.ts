import { randomBytes } from 'node:crypto';
import { notify } from '../../src/modules/notifications/notifications.service';
import type { Db } from '../../src/platform/db/knex';
import { fakeTTLockControl } from '../fakes/ttlock';
import { addStaff, as, registerHotel, type RegisteredHotel } from '../helpers/accounts';
import type { TestApp } from '../helpers/app';
import { localDay } from '../helpers/dates';
import { outboxWorkflowsAtRest, withTemporal } from '../helpers/workflows';

/**
 * One record of every kind a hotel owns, created through the API (the notification through `notify`), so the
 * cross-hotel gate can aim another hotel's requests at them. A new kind of record reachable from a route is added
 * here, to RECORD_KINDS and to `seedHotel`.
 */
export const RECORD_KINDS = [
  'owner',
  'staff',
  'upload',
  'category',
  'room',
  'tariff',
  'ratePeriod',
  'override',
  'minibarItem',
  'movement',
  'checklistTemplate',
  'guest',
  'booking',
  'payment',
  'task',
  'checklistItem',
  'consumption',
  'notification',
  'menuCategory',
  'menuItem',
  'roomServiceOrder',
  'roomServiceStay',
  'roomServiceRoom',
  'paymentMethod',
  'gateway',
  'rentalObject',
  'rentalBooking',
  'workstation',
  'device',
  'roomLock',
  'roomLockMac',
  'fiscalReceipt',
  'cardIssuance',
  'chatRoom',
  'chatMessage',
  'loyaltyEntry',
  'loyaltyRedemption',
  'review',
  'reviewOptOut',
] as const;

export type RecordKind = (typeof RECORD_KINDS)[number];

/** A valid 1x1 PNG, for the hotel's uploaded photo. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** Dates the seed uses, so another hotel's requests can aim at the same (category, date) keys. */
export const SEED_DATES = {
  periodFrom: '2031-07-01',
  periodTo: '2031-07-31',
  override: '2031-09-01',
};

export interface SeededHotel {
  hotel: RegisteredHotel;
  /** Lower-case letters and digits, carried by every text field of the hotel's records. */
  canary: string;
  /** Ids of its records, and for `upload` the URL of its uploaded photo. */
  records: Record<RecordKind, string>;
  /** A staff member (housekeeper) with a password, signed in. */
  staff: Awaited<ReturnType<typeof addStaff>>;
}

/** A fresh canary: `cnry` and 12 hex digits, unique enough that any occurrence in a response is a leak. */
export function newCanary(): string {
  return `cnry${randomBytes(6).toString('hex')}`;
}

/** Registers a hotel whose name, address, contact and owner e-mail carry `canary`. */
export function registerCanaryHotel(t: TestApp, canary: string): Promise<RegisteredHotel> {
  return registerHotel(t, {
    hotel_name: `Hotel ${canary}`,
    address: `Street ${canary}, 1`,
    contact: `Owner ${canary}`,
    email: `${canary}-owner@example.test`,
  });
}

/** Hotel-local calendar days far in the future, so stays and prices never meet today's rules. */
export function day(offset: number, base = '2031-03-01'): string {
  return new Date(Date.parse(`${base}T00:00:00Z`) + offset * 86_400_000).toISOString().slice(0, 10);
}

/**
 * Seeds `hotel` through the API with one record of every kind, each text field carrying `canary`: a staff member,
 * a category, a room, a tariff, a rate period, an override, a minibar item with a stock movement, a checklist
 * template, a guest (blacklisted, with passport data), an uploaded photo (on the category, room and task), a booking with that guest added and a payment, a housekeeping
 * task with a checklist item (from the template) and a minibar check, the hotel settings (SMTP), the payment settings
 * (a deduction preset), a payment method, a YooKassa gateway, a cash deposit on the booking, a rental object (made
 * active) with a daily booking charged to the booking, a workstation paired with an agent and a fiscal register on it,
 * a door-lock cloud account (on the stack's fake TTLock, signed in) with its one lock mapped to the room,
 * a fiscal receipt of the payment on that register, a notification, and the loyalty programme on (its tiers) with
 * points added to the guest and to the booker by a manager, and some of the booker's spent on the booking.
 */
export async function seedHotel(t: TestApp, hotel: RegisteredHotel, canary: string): Promise<SeededHotel> {
  const api = (path: string) => `/api/hotels/${hotel.slug}${path}`;
  const auth = as(hotel.accessToken);
  async function post(path: string, body: Record<string, unknown>, status = 201, method: 'post' | 'put' = 'post') {
    const response = await t.http[method](api(path)).set(auth).send(body);
    if (response.status !== status) {
      throw new Error(`seeding ${method.toUpperCase()} ${path}: ${response.status} ${response.text}`);
    }
    return response.body as Record<string, unknown> & { id: string };
  }
  const patch = async (path: string, body: Record<string, unknown>) => {
    const response = await t.http.patch(api(path)).set(auth).send(body);
    if (response.status !== 200) throw new Error(`seeding PATCH ${path}: ${response.status} ${response.text}`);
  };

  await patch('/settings', {
    room_assignment_strategy: 'sequential',
    smtp_host: `${canary}.example.test`,
    smtp_port: 587,
    smtp_user: `${canary}-smtp`,
    smtp_password: `${canary}-secret`,
    smtp_from: `${canary}-mail@example.test`,
  });
  const staff = await addStaff(t, hotel, 'housekeeper');
  await patch(`/users/${staff.id}`, {
    name: `Maid ${canary}`,
    position: `Position ${canary}`,
    phone: '+7 900 000-00-01',
  });

  const uploaded = await t.http
    .post('/api/upload')
    .query({ folder: 'rooms' })
    .set(auth)
    .attach('file', PNG, { filename: `${canary}.png`, contentType: 'image/png' });
  if (uploaded.status !== 201) throw new Error(`seeding POST /api/upload: ${uploaded.status} ${uploaded.text}`);
  const upload = (uploaded.body as { url: string }).url;
  const category = await post('/room-categories', {
    name: `Category ${canary}`,
    description: `Description ${canary}`,
    base_price: 5000,
    photos: [upload],
  });
  const room = await post('/rooms', {
    number: canary,
    name: `Room ${canary}`,
    category_id: category.id,
    floor: 3,
    bed_type: `Bed ${canary}`,
    notes: `Notes ${canary}`,
    photos: [upload],
  });
  const tariff = await post('/tariffs', {
    name: `Tariff ${canary}`,
    description: `Tariff description ${canary}`,
    adjustment_type: 'percent',
    adjustment_value: -10,
  });
  const ratePeriod = await post('/rate-periods', {
    name: `Season ${canary}`,
    date_from: SEED_DATES.periodFrom,
    date_to: SEED_DATES.periodTo,
    prices: [{ category_id: category.id, price: 7000 }],
  });
  const overrides = (await post(
    '/rate-overrides',
    { category_id: category.id, date: SEED_DATES.override, price: 9000 },
    200,
  )) as unknown as { id: string }[];
  const minibarItem = await post('/minibar-items', {
    name: `Cola ${canary}`,
    category: `Drinks ${canary}`,
    price: 150,
  });
  const movement = (await post('/minibar/stock', {
    item_id: minibarItem.id,
    kind: 'receipt',
    quantity: 20,
    note: `Delivery ${canary}`,
  })) as unknown as { movement: { id: string } };
  const checklistTemplate = await post('/checklist-templates', {
    name: `Checklist ${canary}`,
    task_category: 'housekeeping',
    room_category_id: category.id,
    items: [`Check ${canary}`],
  });
  const guest = await post('/guests', {
    last_name: `Guest ${canary}`,
    first_name: `First ${canary}`,
    middle_name: `Middle ${canary}`,
    email: `${canary}-guest@example.test`,
    phone: `+7 901 ${String(Date.now()).slice(-7)}`,
    citizenship: `Country ${canary}`,
    passport_series: canary.slice(0, 16),
    passport_number: `N${canary}`,
    passport_issued_by: `Issuer ${canary}`,
    notes: `Guest notes ${canary}`,
  });
  const booking = await post('/bookings', {
    room_id: room.id,
    check_in: day(9),
    check_out: day(11),
    guest_last_name: `Booker ${canary}`,
    guest_first_name: `Booker first ${canary}`,
    guest_middle_name: `Booker middle ${canary}`,
    guest_email: `${canary}-booker@example.test`,
    tariff_id: tariff.id,
    notes: `Booking notes ${canary}`,
  });
  await post(`/bookings/${booking.id}/guests`, { guest_id: guest.id }, 200);
  await post(`/guests/${guest.id}/blacklist`, { is_blacklisted: true, reason: `Reason ${canary}` }, 200);
  const { payment } = (await post(`/bookings/${booking.id}/payments`, {
    amount: 1000,
    method: 'card',
    note: `Payment ${canary}`,
  })) as unknown as { payment: { id: string } };
  const task = await post('/housekeeping', {
    room_id: room.id,
    category: 'housekeeping',
    priority: 'low',
    assignee_id: staff.id,
    notes: `Task ${canary}`,
    photos: [upload],
    requires_minibar_check: true,
  });
  const read = await t.http
    .get(api(`/housekeeping/${task.id}`))
    .set(auth)
    .expect(200);
  const checklist = (read.body as { checklist: { id: string }[] }).checklist;
  if (checklist.length === 0) throw new Error('seeding: the task got no checklist item from the template');
  const [consumption] = (await post(
    `/housekeeping/${task.id}/minibar`,
    { items: [{ item_id: minibarItem.id, quantity: 1 }] },
    200,
    'put',
  )) as unknown as { id: string }[];

  await patch('/payment-settings', { deduction_presets: [{ name: `Preset ${canary}`, amounts: [500] }] });
  const paymentMethod = await post('/payment-methods', { name: `Method ${canary}`, type: 'card' });
  const gateway = await post('/payment-gateways', {
    provider: 'yookassa',
    shop_id: String(Date.now()),
    secret_key: `${canary}-secret-key`,
    return_url: `https://${canary}.example.test/paid`,
  });
  await post(`/bookings/${booking.id}/deposit`, {
    kind: 'cash',
    amount: 500,
    guest_email: `deposit-${canary}@example.test`,
  });
  const [rentalTemplate] = (await t.http.get(api('/rental-objects')).set(auth).expect(200)).body as { id: string }[];
  await patch(`/rental-objects/${rentalTemplate.id}`, { name: `Court ${canary}`, is_active: true });
  const rentalBooking = await post('/rental-bookings', {
    rental_object_id: rentalTemplate.id,
    kind: 'daily',
    date_from: day(0, '2034-01-01'),
    date_to: day(0, '2034-01-01'),
    guest_name: `Renter ${canary}`,
    guest_phone: '+79990000000',
    booking_id: booking.id,
  });

  const workstation = await post('/workstations', { name: `Desk ${canary}`, ttlock_com_port: 'COM3' });
  const { pair_code } = await post(`/workstations/${workstation.id}/pair-code`, {});
  const pairing = await t.http
    .post('/api/agents/pair')
    .send({ pair_code, agent_version: `1.0-${canary}`, machine_name: `PC ${canary}` });
  if (pairing.status !== 201) throw new Error(`seeding POST /api/agents/pair: ${pairing.status} ${pairing.text}`);
  const device = await post(`/workstations/${workstation.id}/devices`, {
    name: `Register ${canary}`,
    type: 'fiscal_register',
    connection: 'com',
    com_port: 'COM4',
    fiscal_mode: canary,
    dto_port: 5555,
    config: { dto_device_id: canary },
  });

  // No route prints a receipt yet: the desk's register gets one through the service, as the payment flows will.
  const fiscalReceipt = await t.db.transaction((trx) =>
    t.services.fiscal.prepare(trx, hotel.hotelId, {
      source_kind: 'booking_payment',
      source_id: payment.id,
      operation: 'sell',
      workstation_id: workstation.id,
      device_id: device.id,
      receipt: {
        operator: { name: `Cashier ${canary}` },
        taxation: 'osn',
        customer: { email: `${canary}-receipt@example.test` },
        lines: [
          {
            name: `Stay ${canary}`,
            unitPrice: '1000',
            quantity: 1,
            vat: '20',
            method: 'full_payment',
            object: 'service',
          },
        ],
        payments: [{ kind: 'card', amount: '1000' }],
      },
    }),
  );

  const lockAccount = {
    client_id: `${canary}-app`,
    client_secret: `${canary}-client-secret`,
    username: `${canary}-locks`,
    password: `${canary}-password`,
  };
  // The canary's 12 hex digits are the lock's MAC: the two hotels' locks differ.
  const lockMac = canary.slice(-12).match(/../g)!.join(':').toUpperCase();
  await fakeTTLockControl(t.config.ttlock.apiUrls.EU).registerAccount({
    clientId: lockAccount.client_id,
    clientSecret: lockAccount.client_secret,
    username: lockAccount.username,
    password: lockAccount.password,
    locks: [{ lockId: 1, lockMac, lockAlias: `Door ${canary}` }],
  });
  await patch('/lockvendor/config', { ...lockAccount, enabled: true });
  await post('/lockvendor/token', {}, 200);
  const roomLock = await post('/lockvendor/room-locks', {
    lock_mac: lockMac,
    room_id: room.id,
    build_no: 1,
    floor_no: 3,
    lock_alias: `Door ${canary}`,
  });

  // A card written at the desk (as the cardIssuance workflow records one), its number the canary's.
  const [cardIssuance] = (await t
    .db('card_issuances')
    .insert({
      hotel_id: hotel.hotelId,
      booking_id: booking.id,
      workstation_id: workstation.id,
      room_ids: [room.id],
      sectors: [1],
      valid_from: new Date(),
      valid_until: new Date(Date.now() + 86_400_000),
      status: 'written',
      card_number: canary,
      issued_by: hotel.userId,
    })
    .returning('id')) as { id: string }[];

  // The TV system reached through the desk (its LAN address allowed), the room mapped, a push logged.
  await patch('/tv-integration/settings', {
    connection_type: 'agent',
    agent_workstation_id: workstation.id,
    server_url: `http://${canary}.example.test/tv`,
    netup_room_number: { [room.id]: canary },
    tl_token: `${canary}-tv-poll-token`,
  });
  await t.db('tv_push_log').insert({
    hotel_id: hotel.hotelId,
    booking_id: booking.id,
    event: 'check_in',
    status: 'error',
    detail: `HTTP 503: ${canary}`,
    via: 'agent',
    http_status: 503,
  });

  const notification = await t.db.transaction((trx) =>
    notify(trx, hotel.hotelId, {
      type: 'housekeeping_task_created',
      title: `Notice ${canary}`,
      body: `Notice body ${canary}`,
      data: { task_id: task.id, note: `data ${canary}` },
    }),
  );

  // Room service on, a dish of the menu (with the photo), and an order placed by a guest in house now (through the
  // public route, with the stay's code).
  await patch('/room-service/settings', { enabled: true, delivery_fee: 100 });
  const menuCategory = await post('/room-service/menu/categories', { name: `Menu ${canary}` });
  const menuItem = await post('/room-service/menu/items', {
    category_id: menuCategory.id,
    name: `Dish ${canary}`,
    description: `Dish description ${canary}`,
    price: 250,
    photo_url: upload,
  });
  const guestRoom = await post('/rooms', { number: `${canary.slice(0, 14)}g`, category_id: category.id });
  const inHouse = await post('/bookings', {
    room_id: guestRoom.id,
    check_in: localDay(-1),
    check_out: localDay(1),
    guest_last_name: `Diner ${canary}`,
    guest_first_name: `Diner first ${canary}`,
  });
  await patch(`/bookings/${inHouse.id}`, { status: 'checked_in' });
  const stayCode = await t.http.get(api(`/room-service/stays/${inHouse.id}/code`)).set(auth);
  if (stayCode.status !== 200) throw new Error(`seeding the stay code: ${stayCode.status} ${stayCode.text}`);
  const ordered = await t.http
    .post(`/api/hotels/${hotel.slug}/room-service/guest/orders`)
    .set({ 'X-Room': guestRoom.number as string, 'X-Stay-Code': stayCode.body.code as string })
    .send({ items: [{ item_id: menuItem.id, quantity: 2 }], note: `Order note ${canary}` });
  if (ordered.status !== 201) throw new Error(`seeding a room-service order: ${ordered.status} ${ordered.text}`);
  const roomServiceOrder = (ordered.body as { order: { id: string } }).order;

  const chatRoom = await post('/chat/rooms', { type: 'group', name: `Chat ${canary}`, member_ids: [staff.id] });
  const chatMessage = await post(`/chat/rooms/${chatRoom.id}/messages`, { text: `Message ${canary}` });
  // Read by its member: the unread-message job (every 15 minutes) has nothing of the seed to sum up mid-sweep.
  await t.db('chat_reads').insert({
    hotel_id: hotel.hotelId,
    room_id: chatRoom.id,
    user_id: staff.id,
    last_read_at: t.db.fn.now(),
  });

  await patch('/loyalty/settings', {
    enabled: true,
    tiers: [
      { name: `Tier ${canary}`, threshold: 0, earn_rate: 5 },
      { name: `Gold ${canary}`, threshold: 10, earn_rate: 10 },
    ],
  });
  const loyaltyEntry = await post(`/guests/${guest.id}/loyalty/adjustments`, { points: 500, note: `Points ${canary}` });

  // Reviews on, and the booking's review as its guest left it with the link the workflow would have e-mailed.
  await patch('/review-settings', { invitations_enabled: true, invitation_delay_hours: 48 });
  const stayDays = { stay_from: day(0), stay_to: day(1) };
  const [invitation] = (await t
    .db('review_invitations')
    .insert({
      hotel_id: hotel.hotelId,
      booking_id: booking.id,
      token_sha256: randomBytes(32).toString('hex'),
      email: `${canary}-reviewer@example.test`,
      guest_first_name: `Reviewer ${canary}`,
      ...stayDays,
      sent_at: new Date(),
      expires_at: new Date(Date.now() + 60 * 86_400_000),
      used_at: new Date(),
    })
    .returning('id')) as { id: string }[];
  const [review] = (await t
    .db('reviews')
    .insert({
      hotel_id: hotel.hotelId,
      booking_id: booking.id,
      invitation_id: invitation.id,
      overall: 4,
      cleanliness: 5,
      comment: `Review ${canary}`,
      guest_first_name: `Reviewer ${canary}`,
      ...stayDays,
      status: 'pending',
      reply: `Reply ${canary}`,
      replied_at: new Date(),
    })
    .returning('id')) as { id: string }[];
  const reviewOptOut = await post('/review-opt-outs', { email: `${canary}-optout@example.test` });
  const booked = await t.http.get(api(`/bookings/${booking.id}`)).set(auth);
  const booker = (booked.body.guests as { guest_id: string; is_primary: boolean }[]).find((link) => link.is_primary);
  await post(`/guests/${booker!.guest_id}/loyalty/adjustments`, { points: 500, note: `Booker points ${canary}` });
  const { entry: loyaltyRedemption } = (await post(`/bookings/${booking.id}/loyalty-redemptions`, {
    points: 100,
  })) as unknown as { entry: { id: string } };

  return {
    hotel,
    canary,
    staff,
    records: {
      owner: hotel.userId,
      staff: staff.id,
      upload,
      category: category.id,
      room: room.id,
      tariff: tariff.id,
      ratePeriod: ratePeriod.id,
      override: overrides[0].id,
      minibarItem: minibarItem.id,
      movement: movement.movement.id,
      checklistTemplate: checklistTemplate.id,
      guest: guest.id,
      booking: booking.id,
      payment: payment.id,
      task: task.id,
      checklistItem: checklist[0].id,
      consumption: consumption.id,
      notification: notification.id,
      menuCategory: menuCategory.id,
      menuItem: menuItem.id,
      roomServiceOrder: roomServiceOrder.id,
      roomServiceStay: inHouse.id,
      roomServiceRoom: guestRoom.id,
      paymentMethod: paymentMethod.id,
      gateway: gateway.id,
      rentalObject: rentalTemplate.id,
      rentalBooking: rentalBooking.id,
      workstation: workstation.id,
      device: device.id,
      roomLock: roomLock.id,
      roomLockMac: lockMac,
      fiscalReceipt: fiscalReceipt.id,
      cardIssuance: cardIssuance.id,
      chatRoom: chatRoom.id,
      chatMessage: chatMessage.id,
      loyaltyEntry: loyaltyEntry.id,
      loyaltyRedemption: loyaltyRedemption.id,
      review: review.id,
      reviewOptOut: reviewOptOut.id,
    },
  };
}

/** Every row of every table with a `hotel_id` column (and the hotel's own row), as sorted JSON text per table. */
export type HotelSnapshot = Record<string, string[]>;

export async function hotelTables(db: Db): Promise<string[]> {
  const rows = (await db('information_schema.columns')
    .where({ table_schema: 'public', column_name: 'hotel_id' })
    .orderBy('table_name')
    .select('table_name')) as { table_name: string }[];
  return rows.map((row) => row.table_name);
}

export async function snapshotHotel(db: Db, hotelId: string): Promise<HotelSnapshot> {
  const snapshot: HotelSnapshot = {};
  const hotels = await db.raw('SELECT row_to_json(x)::text AS j FROM hotels x WHERE id = ?', [hotelId]);
  snapshot.hotels = (hotels.rows as { j: string }[]).map((row) => row.j);
  for (const table of await hotelTables(db)) {
    const result = await db.raw('SELECT row_to_json(x)::text AS j FROM ?? x WHERE hotel_id = ? ORDER BY 1', [
      table,
      hotelId,
    ]);
    snapshot[table] = (result.rows as { j: string }[]).map((row) => row.j);
  }
  return snapshot;
}

/** The tables whose rows differ, each with the rows only before and only after. */
export function snapshotDiff(before: HotelSnapshot, after: HotelSnapshot) {
  const diffs: { table: string; removed: string[]; added: string[] }[] = [];
  for (const table of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const was = new Set(before[table] ?? []);
    const is = new Set(after[table] ?? []);
    const removed = [...was].filter((row) => !is.has(row));
    const added = [...is].filter((row) => !was.has(row));
    if (removed.length > 0 || added.length > 0) diffs.push({ table, removed, added });
  }
  return diffs;
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** Every UUID in the snapshot: the ids of the hotel's rows and those they point at. */
export function uuidsOf(snapshot: HotelSnapshot): Set<string> {
  const ids = new Set<string>();
  for (const rows of Object.values(snapshot)) {
    for (const row of rows) for (const match of row.match(UUID) ?? []) ids.add(match.toLowerCase());
  }
  return ids;
}

/**
 * The hotel's rows once the work handed to workflows in `lanes` (hotel slugs) is done: every outbox message of those
 * hotels delivered and the workflow it addresses at rest (the booking workflow's notification written, e-mails sent).
 */
export async function settledSnapshot(db: Db, hotelId: string, lanes: string[]): Promise<HotelSnapshot> {
  await withTemporal((client) =>
    outboxWorkflowsAtRest(db, client, (outbox) => outbox.whereIn('lane', lanes), {
      what: `the workflows of ${lanes.join(', ')}`,
      timeoutMs: 60_000,
    }),
  );
  return snapshotHotel(db, hotelId);
}
