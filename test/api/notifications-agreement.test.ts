import {
  NOTIFICATION_ROLES,
  NOTIFICATION_TYPES,
  ROLE_DEFAULTS,
  type HotelRole,
  type NotificationSettings,
} from '../../src/modules/notifications/notifications.types';
import { addStaff, as, registerHotel, type RegisteredHotel } from '../helpers/accounts';
import { createTestApp, type TestApp } from '../helpers/app';

/**
 * Who receives a type is decided twice over the same stored settings: in SQL when a notification is made (`notify`,
 * `notifyEach`, `receiversOf`: `rolesReceivingQuery` of the repository), and in TypeScript for the settings' screen
 * and push (`effectiveSettings`). They must agree for every type, whatever form a role's stored choices take.
 */
let t: TestApp;
let owner: RegisteredHotel;
/** The hotel's one user of each role. */
const userOf = new Map<HotelRole, string>();

const defaults = (role: HotelRole) => new Set<string>(ROLE_DEFAULTS[role]);
/** A type the role receives by default, and one it does not (when it has such a type). */
const onByDefault = (role: HotelRole) => NOTIFICATION_TYPES.find((type) => defaults(role).has(type))!;
const offByDefault = (role: HotelRole) => NOTIFICATION_TYPES.find((type) => !defaults(role).has(type));

/** Each form a role's stored choices take; the roles past the list have no row at all. */
function storedForms(): Partial<Record<HotelRole, Record<string, unknown>>> {
  const [emptyRow, partial, trueOverFalse, falseOverTrue, notBoolean] = NOTIFICATION_ROLES.filter(
    (role) => role !== 'hotel_admin' && offByDefault(role) !== undefined,
  );
  return {
    hotel_admin: undefined,
    [emptyRow]: {},
    [partial]: { [onByDefault(partial)]: false, [offByDefault(partial)!]: true, chat_message: true },
    [trueOverFalse]: Object.fromEntries(
      NOTIFICATION_TYPES.filter((type) => !defaults(trueOverFalse).has(type)).map((type) => [type, true]),
    ),
    [falseOverTrue]: Object.fromEntries([...defaults(falseOverTrue)].map((type) => [type, false])),
    // Not a choice: a value that is not a boolean leaves the default.
    [notBoolean]: { [onByDefault(notBoolean)]: null, [offByDefault(notBoolean)!]: 'true' },
  };
}

beforeAll(async () => {
  t = createTestApp();
  owner = await registerHotel(t);
  userOf.set('hotel_admin', owner.userId);
  for (const role of NOTIFICATION_ROLES.filter((role) => role !== 'hotel_admin')) {
    userOf.set(role, (await addStaff(t, owner, role)).id);
  }
  const rows = Object.entries(storedForms()).filter(([, settings]) => settings !== undefined);
  await t
    .db('notification_settings')
    .insert(rows.map(([role, settings]) => ({ hotel_id: owner.hotelId, role, settings: JSON.stringify(settings) })));
});
afterAll(() => t.close());

it('for every type, notify delivers to exactly the users whose roles the settings in effect say receive it', async () => {
  // The settings in effect as the screen shows them (`effectiveSettings` over the stored rows).
  const settings = (
    await t.http.get(`/api/hotels/${owner.slug}/notification-settings`).set(as(owner.accessToken)).expect(200)
  ).body as NotificationSettings;
  const everyone = [...userOf.values()];
  // Each form is really there: some stored choices differ from the defaults.
  expect(
    NOTIFICATION_ROLES.some((role) =>
      NOTIFICATION_TYPES.some((type) => settings[role][type] !== defaults(role).has(type)),
    ),
  ).toBe(true);

  for (const type of NOTIFICATION_TYPES) {
    const expected = NOTIFICATION_ROLES.filter((role) => settings[role][type])
      .map((role) => userOf.get(role)!)
      .sort();
    const made = await t.db.transaction((trx) =>
      t.services.notifications.notify(trx, owner.hotelId, { type, title: `Проверка ${type}`, body: '', data: {} }),
    );
    const recipients = await t
      .db('notification_recipients')
      .where({ hotel_id: owner.hotelId, notification_id: made.id })
      .pluck('user_id');
    expect({ type, recipients: [...recipients].sort() }).toEqual({ type, recipients: expected });
    expect(made.recipients).toBe(expected.length);
    // `notifyEach`'s choice (the chat's `receiversOf`) is the same.
    const receivers = await t.services.notifications.receiversOf(t.db, owner.hotelId, type, everyone);
    expect({ type, receivers: [...receivers].sort() }).toEqual({ type, receivers: expected });
  }
});
