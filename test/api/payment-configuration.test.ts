import { randomBytes } from 'node:crypto';
import { reencryptGatewaySecrets } from '../../src/modules/payments/payments.gateways';
import { decryptSecret } from '../../src/platform/crypto';
import { createTestApp, testConfig, type TestApp } from '../helpers/app';
import { addStaff, as, registerHotel, type RegisteredHotel } from '../helpers/accounts';
import { TEST_APP_ENV } from '../helpers/stack-env';

let t: TestApp;
let owner: RegisteredHotel;
let other: RegisteredHotel;
let maid: Awaited<ReturnType<typeof addStaff>>;
let accountant: Awaited<ReturnType<typeof addStaff>>;
beforeAll(async () => {
  t = createTestApp();
  [owner, other] = await Promise.all([registerHotel(t), registerHotel(t)]);
  [maid, accountant] = await Promise.all([addStaff(t, owner, 'housekeeper'), addStaff(t, owner, 'accountant')]);
});
afterAll(() => t.close());

const api = (hotel: RegisteredHotel, path: string) => `/api/hotels/${hotel.slug}${path}`;
const detailPaths = (body: { details?: { path: string }[] }) => (body.details ?? []).map((detail) => detail.path);

/** A request with the status it must get: a patch sends `change`. */
type Attempt = [method: 'get' | 'patch' | 'delete', url: string, status: number];

/** Makes each attempt as the holder of `token`; returns the answers' texts. */
async function attemptAll(token: string, attempts: Attempt[], change: Record<string, unknown>): Promise<string[]> {
  const texts: string[] = [];
  for (const [method, url, status] of attempts) {
    const request = t.http[method](url).set(as(token));
    const answer = await (method === 'patch' ? request.send(change) : request).expect(status);
    texts.push(answer.text);
  }
  return texts;
}

/** What another hotel's staff get for a record of ours: 403 under our slug, 404 under theirs. */
const foreignAttempts = (ours: string, theirs: string, id: string): Attempt[] => [
  ['get', ours, 403],
  ['get', `${ours}/${id}`, 403],
  ['patch', `${ours}/${id}`, 403],
  ['delete', `${ours}/${id}`, 403],
  ['get', `${theirs}/${id}`, 404],
  ['patch', `${theirs}/${id}`, 404],
  ['delete', `${theirs}/${id}`, 404],
];

describe('payment methods', () => {
  const methods = (hotel = owner) => api(hotel, '/payment-methods');
  const createMethod = async (body: Record<string, unknown>, token = owner.accessToken, hotel = owner) =>
    (await t.http.post(methods(hotel)).set(as(token)).send(body).expect(201)).body as Record<string, unknown> & {
      id: string;
    };

  it('create, read, list in sort order then name, update, delete', async () => {
    const hotel = await registerHotel(t);
    const create = (body: Record<string, unknown>) => createMethod(body, hotel.accessToken, hotel);
    const cash = await create({ name: 'Наличные', type: 'cash', sort_order: 2 });
    expect(cash).toMatchObject({
      name: 'Наличные',
      type: 'cash',
      currency: 'RUB',
      is_active: true,
      sort_order: 2,
      hotel_id: hotel.hotelId,
    });
    const card = await create({ name: 'Карта', type: 'card', sort_order: 1 });
    const transfer = await create({ name: 'Безнал', type: 'transfer', sort_order: 2, currency: 'usd' });
    expect(transfer.currency).toBe('USD');

    const list = await t.http.get(methods(hotel)).set(as(hotel.accessToken)).expect(200);
    expect(list.body.map((method: { id: string }) => method.id)).toEqual([card.id, transfer.id, cash.id]);

    const updated = await t.http
      .patch(`${methods(hotel)}/${cash.id}`)
      .set(as(hotel.accessToken))
      .send({ name: 'Касса', is_active: false })
      .expect(200);
    expect(updated.body).toMatchObject({ name: 'Касса', is_active: false, type: 'cash' });
    const active = await t.http.get(methods(hotel)).query({ is_active: true }).set(as(hotel.accessToken)).expect(200);
    expect(active.body.map((method: { id: string }) => method.id)).toEqual([card.id, transfer.id]);
    const cards = await t.http.get(methods(hotel)).query({ type: 'card' }).set(as(hotel.accessToken)).expect(200);
    expect(cards.body.map((method: { id: string }) => method.id)).toEqual([card.id]);

    await t.http
      .delete(`${methods(hotel)}/${cash.id}`)
      .set(as(hotel.accessToken))
      .expect(200);
    await t.http
      .get(`${methods(hotel)}/${cash.id}`)
      .set(as(hotel.accessToken))
      .expect(404);
    await t.http
      .delete(`${methods(hotel)}/${cash.id}`)
      .set(as(hotel.accessToken))
      .expect(404);
  });

  it.each([
    [{ type: 'cash' }, 'body.name'],
    [{ name: 'Без типа' }, 'body.type'],
    [{ name: 'X', type: 'crypto' }, 'body.type'],
    [{ name: '   ', type: 'cash' }, 'body.name'],
    [{ name: 'x'.repeat(101), type: 'cash' }, 'body.name'],
    [{ name: 'X', type: 'cash', currency: 'RUBL' }, 'body.currency'],
    [{ name: 'X', type: 'cash', currency: 'ZZZ' }, 'body.currency'],
    [{ name: 'X', type: 'cash', sort_order: -1 }, 'body.sort_order'],
    [{ name: 'X', type: 'cash', sort_order: 10001 }, 'body.sort_order'],
    [{ name: 'X', type: 'cash', sort_order: 1.5 }, 'body.sort_order'],
  ])('400 creating %j', async (body, path) => {
    const response = await t.http.post(methods()).set(as(owner.accessToken)).send(body).expect(400);
    expect(detailPaths(response.body)).toContain(path);
  });

  it('400 for an empty change or a bad value, and nothing changes', async () => {
    const created = await createMethod({ name: 'Неизменный', type: 'other' });
    for (const body of [{}, { type: 'barter' }, { sort_order: 20000 }, { is_active: 'maybe' }]) {
      await t.http.patch(`${methods()}/${created.id}`).set(as(owner.accessToken)).send(body).expect(400);
    }
    const read = await t.http.get(`${methods()}/${created.id}`).set(as(owner.accessToken)).expect(200);
    expect(read.body).toEqual(created);
  });

  it('every member of staff reads; only owner, managers and the accountant write', async () => {
    const created = await createMethod({ name: 'От бухгалтера', type: 'transfer' }, accountant.accessToken);
    const item = `${methods()}/${created.id}`;
    const change = { sort_order: 5 };
    await attemptAll(
      maid.accessToken,
      [
        ['get', methods(), 200],
        ['get', item, 200],
      ],
      change,
    );
    await t.http.post(methods()).set(as(maid.accessToken)).send({ name: 'Горничная', type: 'cash' }).expect(403);
    await attemptAll(
      maid.accessToken,
      [
        ['patch', item, 403],
        ['delete', item, 403],
      ],
      change,
    );
    const receptionist = await addStaff(t, owner, 'receptionist');
    await attemptAll(receptionist.accessToken, [['patch', item, 403]], change);
    await attemptAll(accountant.accessToken, [['patch', item, 200]], change);
  });

  it("another hotel's staff cannot reach our methods", async () => {
    const created = await createMethod({ name: 'Чужой', type: 'card' });
    await attemptAll(other.accessToken, foreignAttempts(methods(), methods(other), created.id), {
      name: 'Захват',
    });
    await t.http.get(`${methods()}/${created.id}`).set(as(owner.accessToken)).expect(200);
  });
});

describe('payment settings', () => {
  const settings = (hotel: RegisteredHotel) => api(hotel, '/payment-settings');
  const rowOf = (hotel: RegisteredHotel) => t.db('payment_settings').where({ hotel_id: hotel.hotelId }).first();

  it('a new hotel starts with the defaults', async () => {
    const hotel = await registerHotel(t);
    const response = await t.http.get(settings(hotel)).set(as(hotel.accessToken)).expect(200);
    expect(response.body).toEqual({
      hotel_id: hotel.hotelId,
      require_payment_checkin: 'none',
      release_requires_checkout: true,
      long_stay_charge_enabled: false,
      long_stay_threshold_days: 6,
      hold_expiry_action: 'release',
      online_payment_ttl_minutes: 60,
      deduction_presets: [],
      fiscal_taxation: 'usn_income',
      fiscal_vat: 'none',
      fiscal_vat_room_service: 'none',
      updated_at: expect.any(String),
    });
  });

  it.each([
    [{ fiscal_taxation: 'osn', fiscal_vat: '22' }],
    [{ fiscal_vat: '0', fiscal_vat_room_service: '20' }],
    [{ require_payment_checkin: 'soft' }],
    [{ release_requires_checkout: false }],
    [{ long_stay_charge_enabled: true }],
    [{ long_stay_threshold_days: 1 }],
    [{ long_stay_threshold_days: 365 }],
    [{ hold_expiry_action: 'capture' }],
    [{ online_payment_ttl_minutes: 5 }],
    [{ online_payment_ttl_minutes: 10080 }],
    [{ deduction_presets: [{ name: 'Полотенце', amounts: ['500.00', '1500.50'] }] }],
  ])('PATCH %j changes that field alone', async (change) => {
    const hotel = await registerHotel(t);
    const before = (await t.http.get(settings(hotel)).set(as(hotel.accessToken)).expect(200)).body;
    const response = await t.http.patch(settings(hotel)).set(as(hotel.accessToken)).send(change).expect(200);
    expect(response.body).toEqual({ ...before, ...change, updated_at: expect.any(String) });
    const reread = await t.http.get(settings(hotel)).set(as(hotel.accessToken)).expect(200);
    expect(reread.body).toEqual(response.body);
  });

  it('changes several fields at once; preset amounts come back with two decimals, the list replaced whole', async () => {
    const hotel = await registerHotel(t);
    const patch = (body: Record<string, unknown>) =>
      t.http.patch(settings(hotel)).set(as(hotel.accessToken)).send(body).expect(200);
    const first = await patch({
      long_stay_charge_enabled: true,
      long_stay_threshold_days: 7,
      deduction_presets: [
        { name: ' Мини-бар ', amounts: [150, '300.5', 0.01] },
        { name: 'Ущерб', amounts: ['10000'] },
      ],
    });
    expect(first.body).toMatchObject({
      long_stay_charge_enabled: true,
      long_stay_threshold_days: 7,
      deduction_presets: [
        { name: 'Мини-бар', amounts: ['150.00', '300.50', '0.01'] },
        { name: 'Ущерб', amounts: ['10000.00'] },
      ],
    });
    const second = await patch({ deduction_presets: [{ name: 'Ключ', amounts: [700] }] });
    expect(second.body.deduction_presets).toEqual([{ name: 'Ключ', amounts: ['700.00'] }]);
    expect((await rowOf(hotel)).deduction_presets).toEqual([{ name: 'Ключ', amounts: ['700.00'] }]);
    const cleared = await patch({ deduction_presets: [] });
    expect(cleared.body.deduction_presets).toEqual([]);
  });

  const preset = (amounts: unknown[]) => ({ name: 'Набор', amounts });
  it.each([
    [{ long_stay_threshold_days: 0 }, 'body.long_stay_threshold_days'],
    [{ long_stay_threshold_days: 366 }, 'body.long_stay_threshold_days'],
    [{ long_stay_threshold_days: 2.5 }, 'body.long_stay_threshold_days'],
    [{ online_payment_ttl_minutes: 4 }, 'body.online_payment_ttl_minutes'],
    [{ online_payment_ttl_minutes: 10081 }, 'body.online_payment_ttl_minutes'],
    [{ hold_expiry_action: 'keep' }, 'body.hold_expiry_action'],
    [{ fiscal_taxation: 'envd' }, 'body.fiscal_taxation'],
    [{ fiscal_vat: '18' }, 'body.fiscal_vat'],
    [{ fiscal_vat_room_service: '18' }, 'body.fiscal_vat_room_service'],
    [{ require_payment_checkin: 'always' }, 'body.require_payment_checkin'],
    [{ release_requires_checkout: 'yes' }, 'body.release_requires_checkout'],
    [{ deduction_presets: Array.from({ length: 51 }, () => preset([100])) }, 'body.deduction_presets'],
    [{ deduction_presets: [preset(Array.from({ length: 21 }, () => 100))] }, 'body.deduction_presets.0.amounts'],
    [{ deduction_presets: [preset([])] }, 'body.deduction_presets.0.amounts'],
    [{ deduction_presets: [preset([0])] }, 'body.deduction_presets.0.amounts.0'],
    [{ deduction_presets: [preset(['0.00'])] }, 'body.deduction_presets.0.amounts.0'],
    [{ deduction_presets: [preset([-5])] }, 'body.deduction_presets.0.amounts.0'],
    [{ deduction_presets: [preset(['12.345'])] }, 'body.deduction_presets.0.amounts.0'],
    [{ deduction_presets: [preset(['сто'])] }, 'body.deduction_presets.0.amounts.0'],
    [{ deduction_presets: [preset([100, 2e9])] }, 'body.deduction_presets.0.amounts.1'],
    [{ deduction_presets: [{ name: '', amounts: [100] }] }, 'body.deduction_presets.0.name'],
    [{ deduction_presets: [{ name: 'x'.repeat(101), amounts: [100] }] }, 'body.deduction_presets.0.name'],
    [{ deduction_presets: [{ amounts: [100] }] }, 'body.deduction_presets.0.name'],
    [{ deduction_presets: 'все' }, 'body.deduction_presets'],
  ])('400 for %j and nothing changes', async (body, path) => {
    const before = await rowOf(owner);
    const response = await t.http.patch(settings(owner)).set(as(owner.accessToken)).send(body).expect(400);
    expect(detailPaths(response.body)).toContain(path);
    expect(await rowOf(owner)).toEqual(before);
  });

  it('400 for an empty change', async () => {
    const response = await t.http.patch(settings(owner)).set(as(owner.accessToken)).send({}).expect(400);
    expect(response.body.error).toMatch(/at least one field/);
  });

  it('staff read; owner, managers and the accountant change; another hotel gets 403', async () => {
    await t.http.get(settings(owner)).set(as(maid.accessToken)).expect(200);
    await t.http.patch(settings(owner)).set(as(maid.accessToken)).send({ hold_expiry_action: 'capture' }).expect(403);
    await t.http
      .patch(settings(owner))
      .set(as(accountant.accessToken))
      .send({ online_payment_ttl_minutes: 30 })
      .expect(200);
    await t.http.get(settings(owner)).set(as(other.accessToken)).expect(403);
    await t.http.patch(settings(owner)).set(as(other.accessToken)).send({ long_stay_threshold_days: 3 }).expect(403);
  });
});

describe('payment gateways', () => {
  const gateways = (hotel: RegisteredHotel) => api(hotel, '/payment-gateways');
  const newSecret = () => `test_${randomBytes(18).toString('base64url')}`;
  const rowOf = (id: string) => t.db('payment_gateways').where({ id }).first();

  async function connect(hotel: RegisteredHotel, overrides: Record<string, unknown> = {}) {
    const secret = newSecret();
    const response = await t.http
      .post(gateways(hotel))
      .set(as(hotel.accessToken))
      .send({ provider: 'yookassa', shop_id: '506751', secret_key: secret, ...overrides })
      .expect(201);
    return { secret, response };
  }

  it('connects YooKassa: the secret is stored encrypted and never answered, only set and its last 4 characters', async () => {
    const hotel = await registerHotel(t);
    const { secret, response } = await connect(hotel, { return_url: 'https://hotel.example.test/paid' });
    expect(response.body).toEqual({
      id: expect.any(String),
      hotel_id: hotel.hotelId,
      provider: 'yookassa',
      shop_id: '506751',
      secret_key_set: true,
      secret_key_hint: `…${secret.slice(-4)}`,
      auto_confirm_on_payment: false,
      test_mode: true,
      is_active: true,
      return_url: 'https://hotel.example.test/paid',
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const id = response.body.id as string;
    const row = await rowOf(id);
    expect(row.secret_key_encrypted).not.toContain(secret);
    expect(row.secret_key_id).toBe(t.config.encryption.currentKeyId);
    expect(decryptSecret(row.secret_key_encrypted, t.config.encryption)).toBe(secret);

    const answers = [
      response,
      await t.http.get(gateways(hotel)).set(as(hotel.accessToken)).expect(200),
      await t.http
        .get(`${gateways(hotel)}/${id}`)
        .set(as(hotel.accessToken))
        .expect(200),
      await t.http
        .patch(`${gateways(hotel)}/${id}`)
        .set(as(hotel.accessToken))
        .send({ test_mode: false })
        .expect(200),
    ];
    for (const answer of answers) {
      expect(answer.text).not.toContain(secret);
      expect(answer.text).not.toContain(row.secret_key_encrypted);
      expect(answer.text).not.toContain('secret_key_encrypted');
    }
    expect(answers[1].body).toEqual([{ ...response.body, updated_at: expect.any(String) }]);
    expect(answers[3].body).toMatchObject({ test_mode: false, secret_key_hint: `…${secret.slice(-4)}` });
  });

  it('an update may replace the secret (the hint follows) or change anything else, keeping it', async () => {
    const hotel = await registerHotel(t);
    const { response } = await connect(hotel);
    const item = `${gateways(hotel)}/${response.body.id}`;
    const replacement = newSecret();
    const replaced = await t.http
      .patch(item)
      .set(as(hotel.accessToken))
      .send({ secret_key: replacement, shop_id: '123456', auto_confirm_on_payment: true })
      .expect(200);
    expect(replaced.text).not.toContain(replacement);
    expect(replaced.body).toMatchObject({
      shop_id: '123456',
      auto_confirm_on_payment: true,
      secret_key_set: true,
      secret_key_hint: `…${replacement.slice(-4)}`,
    });
    const row = await rowOf(response.body.id);
    expect(decryptSecret(row.secret_key_encrypted, t.config.encryption)).toBe(replacement);

    const renamed = await t.http
      .patch(item)
      .set(as(hotel.accessToken))
      .send({ return_url: 'http://hotel.example.test/thanks', is_active: false })
      .expect(200);
    expect(renamed.body).toMatchObject({ return_url: 'http://hotel.example.test/thanks', is_active: false });
    expect((await rowOf(response.body.id)).secret_key_encrypted).toBe(row.secret_key_encrypted);
    const spelled = await t.http
      .patch(item)
      .set(as(hotel.accessToken))
      .send({ return_url: ' HTTPS://Hotel.Example.test ' })
      .expect(200);
    expect(spelled.body.return_url).toBe('https://hotel.example.test/');
    const cleared = await t.http.patch(item).set(as(hotel.accessToken)).send({ return_url: null }).expect(200);
    expect(cleared.body.return_url).toBeNull();

    await t.http.delete(item).set(as(hotel.accessToken)).expect(200);
    await t.http.get(item).set(as(hotel.accessToken)).expect(404);
  });

  it('a short secret shows no more than a quarter of itself', async () => {
    const hotel = await registerHotel(t);
    const short = await connect(hotel, { secret_key: 'abc' });
    expect(short.response.body.secret_key_hint).toBe('…');
    const eight = await t.http
      .patch(`${gateways(hotel)}/${short.response.body.id}`)
      .set(as(hotel.accessToken))
      .send({ secret_key: 'abcdefgh' })
      .expect(200);
    expect(eight.body.secret_key_hint).toBe('…gh');
  });

  it('a second YooKassa gateway of the same hotel is a 409', async () => {
    const hotel = await registerHotel(t);
    await connect(hotel);
    const duplicate = await t.http
      .post(gateways(hotel))
      .set(as(hotel.accessToken))
      .send({ provider: 'yookassa', shop_id: '999', secret_key: newSecret() })
      .expect(409);
    expect(duplicate.body.error).toBe('Шлюз ЮKassa для этого отеля уже подключён: измените или удалите его');
    // Another hotel may use the same shop.
    await connect(await registerHotel(t));
  });

  it.each([
    ['http://127.0.0.1/x'],
    ['http://localhost/paid'],
    ['https://10.0.0.5/paid'],
    ['https://[::1]/paid'],
    ['http://169.254.169.254/latest/meta-data'],
  ])('a return address inside private networks (%s) is a 400, on create and on update, nothing saved', async (url) => {
    const hotel = await registerHotel(t);
    const refused = await t.http
      .post(gateways(hotel))
      .set(as(hotel.accessToken))
      .send({ provider: 'yookassa', shop_id: '1', secret_key: newSecret(), return_url: url })
      .expect(400);
    expect(detailPaths(refused.body)).toEqual(['body.return_url']);
    expect(await t.db('payment_gateways').where({ hotel_id: hotel.hotelId })).toEqual([]);

    const { response } = await connect(hotel, { return_url: 'https://hotel.example.test/paid' });
    await t.http
      .patch(`${gateways(hotel)}/${response.body.id}`)
      .set(as(hotel.accessToken))
      .send({ return_url: url })
      .expect(400);
    expect((await rowOf(response.body.id)).return_url).toBe('https://hotel.example.test/paid');
  });

  it.each([
    [{ shop_id: '1', secret_key: 'k' }, 'body.provider'],
    [{ provider: 'stripe', shop_id: '1', secret_key: 'k' }, 'body.provider'],
    [{ provider: 'yookassa', secret_key: 'k' }, 'body.shop_id'],
    [{ provider: 'yookassa', shop_id: 'shop-1', secret_key: 'k' }, 'body.shop_id'],
    [{ provider: 'yookassa', shop_id: '1'.repeat(65), secret_key: 'k' }, 'body.shop_id'],
    [{ provider: 'yookassa', shop_id: '1' }, 'body.secret_key'],
    [{ provider: 'yookassa', shop_id: '1', secret_key: '' }, 'body.secret_key'],
    [{ provider: 'yookassa', shop_id: '1', secret_key: 'k'.repeat(257) }, 'body.secret_key'],
    [{ provider: 'yookassa', shop_id: '1', secret_key: 'two words' }, 'body.secret_key'],
    [{ provider: 'yookassa', shop_id: '1', secret_key: 'k', return_url: 'ftp://example.test/' }, 'body.return_url'],
    [{ provider: 'yookassa', shop_id: '1', secret_key: 'k', return_url: 'not a url' }, 'body.return_url'],
    [{ provider: 'yookassa', shop_id: '1', secret_key: 'k', return_url: 'javascript:alert(1)' }, 'body.return_url'],
    [{ provider: 'yookassa', shop_id: '1', secret_key: 'k', test_mode: 'perhaps' }, 'body.test_mode'],
  ])('400 creating %j', async (body, path) => {
    const response = await t.http.post(gateways(owner)).set(as(owner.accessToken)).send(body).expect(400);
    expect(detailPaths(response.body)).toContain(path);
  });

  it('only owner, managers and the accountant see or change gateways', async () => {
    const hotel = await registerHotel(t);
    const [hotelMaid, hotelAccountant, receptionist, manager] = await Promise.all(
      ['housekeeper', 'accountant', 'receptionist', 'manager'].map((role) => addStaff(t, hotel, role)),
    );
    const created = await t.http
      .post(gateways(hotel))
      .set(as(hotelAccountant.accessToken))
      .send({ provider: 'yookassa', shop_id: '42', secret_key: newSecret() })
      .expect(201);
    const item = `${gateways(hotel)}/${created.body.id}`;
    await attemptAll(manager.accessToken, [['get', item, 200]], {});
    const refused: Attempt[] = [
      ['get', gateways(hotel), 403],
      ['get', item, 403],
      ['patch', item, 403],
      ['delete', item, 403],
    ];
    for (const member of [hotelMaid, receptionist]) await attemptAll(member.accessToken, refused, { test_mode: false });
    await t.http
      .post(gateways(hotel))
      .set(as(hotelMaid.accessToken))
      .send({ provider: 'yookassa', shop_id: '42', secret_key: newSecret() })
      .expect(403);
  });

  it("another hotel's staff get 403 on our slug and 404 for our gateway under theirs", async () => {
    const hotel = await registerHotel(t);
    const { secret, response } = await connect(hotel);
    const id = response.body.id as string;
    const answers = await attemptAll(other.accessToken, foreignAttempts(gateways(hotel), gateways(other), id), {
      is_active: false,
    });
    for (const answer of answers) expect(answer).not.toContain(secret);
    expect(await rowOf(id)).toMatchObject({ is_active: true, hotel_id: hotel.hotelId });
  });

  it('the payment flows get the active YooKassa gateway decrypted, and the hotels of a shop', async () => {
    const { gateways: service } = t.services.payments;
    const shopId = String(Date.now());
    const [first, second] = await Promise.all([registerHotel(t), registerHotel(t)]);
    expect(await service.activeYooKassa(first.hotelId)).toBeUndefined();
    const { secret, response } = await connect(first, {
      shop_id: shopId,
      auto_confirm_on_payment: true,
      return_url: 'https://first.example.test/paid',
    });
    await connect(second, { shop_id: shopId });
    expect(await service.activeYooKassa(first.hotelId)).toEqual({
      gatewayId: response.body.id,
      shopId,
      secretKey: secret,
      autoConfirmOnPayment: true,
      testMode: true,
      returnUrl: 'https://first.example.test/paid',
    });
    expect(await service.activeYooKassa(second.hotelId)).toMatchObject({ shopId, returnUrl: null });

    await t.http
      .patch(`${gateways(first)}/${response.body.id}`)
      .set(as(first.accessToken))
      .send({ is_active: false })
      .expect(200);
    expect(await service.activeYooKassa(first.hotelId)).toBeUndefined();
    expect(await service.activeYooKassa(second.hotelId)).toMatchObject({ shopId });
  });

  it('key rotation re-encrypts the secrets under the new key, idempotently; an unknown key stops it', async () => {
    const hotel = await registerHotel(t);
    const { secret, response } = await connect(hotel);
    const before = await rowOf(response.body.id);
    const k2 = Buffer.alloc(32, 2).toString('base64');
    const rotated = testConfig({
      ENCRYPTION_KEYS: `${TEST_APP_ENV.ENCRYPTION_KEYS},k2:${k2}`,
      ENCRYPTION_KEY_ID: 'k2',
    });
    const onlyK2 = testConfig({ ENCRYPTION_KEYS: `k2:${k2}` });
    await expect(reencryptGatewaySecrets(t.db, onlyK2.encryption, 10, { hotelId: hotel.hotelId })).rejects.toThrow(
      /encrypted with key "test1", which is not configured/,
    );

    expect(await reencryptGatewaySecrets(t.db, rotated.encryption, 1, { hotelId: hotel.hotelId })).toEqual({
      reencrypted: 1,
    });
    const after = await rowOf(response.body.id);
    expect(after.secret_key_id).toBe('k2');
    expect(after.secret_key_encrypted.split('.')[1]).toBe('k2');
    expect(after.updated_at).toEqual(before.updated_at);
    expect(decryptSecret(after.secret_key_encrypted, rotated.encryption)).toBe(secret);
    expect(await reencryptGatewaySecrets(t.db, rotated.encryption, 1, { hotelId: hotel.hotelId })).toEqual({
      reencrypted: 0,
    });

    const app = createTestApp({ ENCRYPTION_KEYS: `${TEST_APP_ENV.ENCRYPTION_KEYS},k2:${k2}`, ENCRYPTION_KEY_ID: 'k2' });
    try {
      expect((await app.services.payments.gateways.activeYooKassa(hotel.hotelId))?.secretKey).toBe(secret);
    } finally {
      await app.close();
    }
  });
});
