import { randomUUID } from 'node:crypto';
import { createTestApp, type TestApp } from '../helpers/app';
import { addStaff, as, registerHotel, type RegisteredHotel } from '../helpers/accounts';

let t: TestApp;
let owner: RegisteredHotel;
let other: RegisteredHotel;
beforeAll(async () => {
  t = createTestApp();
  [owner, other] = await Promise.all([registerHotel(t), registerHotel(t)]);
});
afterAll(() => t.close());

const workstations = (hotel: RegisteredHotel, path = '') => `/api/hotels/${hotel.slug}/workstations${path}`;
const detailPaths = (body: { details?: { path: string }[] }) => (body.details ?? []).map((detail) => detail.path);

async function workstationIn(hotel = owner, body: Record<string, unknown> = {}) {
  const response = await t.http
    .post(workstations(hotel))
    .set(as(hotel.accessToken))
    .send({ name: 'Ресепшн 1', ...body })
    .expect(201);
  return response.body as { id: string; name: string };
}

async function pairCodeFor(id: string, hotel = owner) {
  const response = await t.http
    .post(workstations(hotel, `/${id}/pair-code`))
    .set(as(hotel.accessToken))
    .expect(201);
  return response.body as { pair_code: string; expires_at: string };
}

const pair = (pairCode: string, extra: Record<string, unknown> = {}) =>
  t.http.post('/api/agents/pair').send({ pair_code: pairCode, ...extra });

async function paired(id: string) {
  const { pair_code } = await pairCodeFor(id);
  const response = await pair(pair_code, { agent_version: '1.2.3', machine_name: 'DESK-1' }).expect(201);
  return response.body as { workstation_id: string; hotel_slug: string; credential: string };
}

const INVALID_CODE = 'Код привязки недействителен или истёк';

describe('workstations', () => {
  it('create, read, update, list, delete; agent fields start empty', async () => {
    const created = await workstationIn(owner, { name: '  Ресепшн 2 ', ttlock_com_port: 'com3' });
    expect(created).toMatchObject({
      name: 'Ресепшн 2',
      ttlock_com_port: 'COM3',
      agent_version: null,
      online: false,
      last_seen_at: null,
      paired: false,
    });
    const item = workstations(owner, `/${created.id}`);
    await t.http.get(item).set(as(owner.accessToken)).expect(200);
    const updated = await t.http
      .patch(item)
      .set(as(owner.accessToken))
      .send({ name: 'Бар', ttlock_com_port: null })
      .expect(200);
    expect(updated.body).toMatchObject({ name: 'Бар', ttlock_com_port: null });
    const list = await t.http.get(workstations(owner)).set(as(owner.accessToken)).expect(200);
    expect(list.body.map((workstation: { id: string }) => workstation.id)).toContain(created.id);
    await t.http.delete(item).set(as(owner.accessToken)).expect(200);
    await t.http.get(item).set(as(owner.accessToken)).expect(404);
  });

  it.each([
    [{}, 'body.name'],
    [{ name: '' }, 'body.name'],
    [{ name: 'x'.repeat(101) }, 'body.name'],
    [{ name: 'A', ttlock_com_port: 'LPT1' }, 'body.ttlock_com_port'],
    [{ name: 'A', ttlock_com_port: 'COM0' }, 'body.ttlock_com_port'],
  ])('400 creating %j', async (body, path) => {
    const response = await t.http.post(workstations(owner)).set(as(owner.accessToken)).send(body).expect(400);
    expect(detailPaths(response.body)).toContain(path);
  });

  it('staff cannot set what the agent reports or holds: such fields are ignored', async () => {
    const created = await workstationIn(owner, { online: true, agent_version: '9.9', credential_hash: 'f'.repeat(64) });
    expect(created).toMatchObject({ online: false, agent_version: null, paired: false });
  });

  it('the desk reads; only owner and managers write; other roles are refused', async () => {
    const hotel = await registerHotel(t);
    const [manager, receptionist, housekeeper, accountant] = await Promise.all(
      ['manager', 'receptionist', 'housekeeper', 'accountant'].map((role) => addStaff(t, hotel, role)),
    );
    const created = await t.http
      .post(workstations(hotel))
      .set(as(manager.accessToken))
      .send({ name: 'Касса' })
      .expect(201);
    const item = workstations(hotel, `/${created.body.id}`);
    await t.http.get(item).set(as(receptionist.accessToken)).expect(200);
    await t.http.get(`${item}/devices`).set(as(receptionist.accessToken)).expect(200);
    await t.http.post(workstations(hotel)).set(as(receptionist.accessToken)).send({ name: 'X' }).expect(403);
    await t.http.patch(item).set(as(receptionist.accessToken)).send({ name: 'X' }).expect(403);
    await t.http.post(`${item}/pair-code`).set(as(receptionist.accessToken)).expect(403);
    await t.http.post(`${item}/revoke`).set(as(receptionist.accessToken)).expect(403);
    await t.http
      .post(`${item}/devices`)
      .set(as(receptionist.accessToken))
      .send({ name: 'Принтер', type: 'printer', connection: 'usb' })
      .expect(403);
    for (const member of [housekeeper, accountant]) {
      await t.http.get(workstations(hotel)).set(as(member.accessToken)).expect(403);
      await t.http.get(item).set(as(member.accessToken)).expect(403);
    }
    await t.http.get(workstations(hotel)).expect(401);
  });

  it("another hotel's staff get 403 on our slug and 404 for our ids under theirs", async () => {
    const ours = await workstationIn();
    const device = await t.http
      .post(workstations(owner, `/${ours.id}/devices`))
      .set(as(owner.accessToken))
      .send({ name: 'Принтер', type: 'printer', connection: 'usb' })
      .expect(201);
    await t.http
      .get(workstations(owner, `/${ours.id}`))
      .set(as(other.accessToken))
      .expect(403);
    for (const path of [`/${ours.id}`, `/${ours.id}/devices`, `/${ours.id}/devices/${device.body.id}`]) {
      await t.http.get(workstations(other, path)).set(as(other.accessToken)).expect(404);
    }
    await t.http
      .patch(workstations(other, `/${ours.id}`))
      .set(as(other.accessToken))
      .send({ name: 'Чужое' })
      .expect(404);
    await t.http
      .post(workstations(other, `/${ours.id}/pair-code`))
      .set(as(other.accessToken))
      .expect(404);
    await t.http
      .post(workstations(other, `/${ours.id}/revoke`))
      .set(as(other.accessToken))
      .expect(404);
    await t.http
      .post(workstations(other, `/${ours.id}/devices`))
      .set(as(other.accessToken))
      .send({ name: 'Принтер', type: 'printer', connection: 'usb' })
      .expect(404);
    await t.http
      .delete(workstations(other, `/${ours.id}/devices/${device.body.id}`))
      .set(as(other.accessToken))
      .expect(404);
    await t.http
      .get(workstations(owner, `/${ours.id}/devices/${device.body.id}`))
      .set(as(owner.accessToken))
      .expect(200);
  });
});

describe('devices', () => {
  it('attach with every field, read, change, list, detach; deleting the workstation takes its devices', async () => {
    const workstation = await workstationIn();
    const devices = workstations(owner, `/${workstation.id}/devices`);
    const created = await t.http
      .post(devices)
      .set(as(owner.accessToken))
      .send({
        name: 'АТОЛ 30Ф',
        type: 'fiscal_register',
        connection: 'com',
        com_port: 'COM4',
        fiscal_mode: 'ATOL',
        dto_port: 5555,
        config: { dto_device_id: '1', baud_rate: 115200 },
      })
      .expect(201);
    expect(created.body).toMatchObject({
      workstation_id: workstation.id,
      com_port: 'COM4',
      fiscal_mode: 'atol',
      dto_port: 5555,
      config: { dto_device_id: '1', baud_rate: 115200 },
    });
    const item = `${devices}/${created.body.id}`;
    await t.http.get(item).set(as(owner.accessToken)).expect(200);
    const changed = await t.http
      .patch(item)
      .set(as(owner.accessToken))
      .send({ connection: 'network', com_port: null, dto_port: null })
      .expect(200);
    expect(changed.body).toMatchObject({ connection: 'network', com_port: null, dto_port: null });
    const list = await t.http.get(devices).set(as(owner.accessToken)).expect(200);
    expect(list.body).toHaveLength(1);
    await t.http.delete(item).set(as(owner.accessToken)).expect(200);
    await t.http.get(item).set(as(owner.accessToken)).expect(404);

    const kept = await t.http
      .post(devices)
      .set(as(owner.accessToken))
      .send({ name: 'Принтер', type: 'printer', connection: 'windows' })
      .expect(201);
    await t.http
      .delete(workstations(owner, `/${workstation.id}`))
      .set(as(owner.accessToken))
      .expect(200);
    expect(await t.db('workstation_devices').where({ id: kept.body.id }).first()).toBeUndefined();
  });

  it('a COM connection needs its port, also when only one of the two changes', async () => {
    const workstation = await workstationIn();
    const devices = workstations(owner, `/${workstation.id}/devices`);
    const refused = await t.http
      .post(devices)
      .set(as(owner.accessToken))
      .send({ name: 'ККТ', type: 'fiscal_register', connection: 'com' })
      .expect(400);
    expect(detailPaths(refused.body)).toEqual(['body.com_port']);
    const device = await t.http
      .post(devices)
      .set(as(owner.accessToken))
      .send({ name: 'ККТ', type: 'fiscal_register', connection: 'usb' })
      .expect(201);
    await t.http
      .patch(`${devices}/${device.body.id}`)
      .set(as(owner.accessToken))
      .send({ connection: 'com' })
      .expect(400);
  });

  it.each([
    [{ name: 'A', type: 'scanner', connection: 'usb' }, 'body.type'],
    [{ name: 'A', type: 'printer', connection: 'bluetooth' }, 'body.connection'],
    [{ name: 'A', type: 'printer', connection: 'usb', dto_port: 0 }, 'body.dto_port'],
    [{ name: 'A', type: 'printer', connection: 'usb', dto_port: 65536 }, 'body.dto_port'],
    [{ name: 'A', type: 'printer', connection: 'usb', com_port: 'COM1234' }, 'body.com_port'],
    [{ name: 'A', type: 'printer', connection: 'usb', fiscal_mode: 'a'.repeat(33) }, 'body.fiscal_mode'],
    [
      { name: 'A', type: 'printer', connection: 'usb', config: { dto_device_id: 'x'.repeat(65) } },
      'body.config.dto_device_id',
    ],
    [{ name: 'A', type: 'printer', connection: 'usb', config: { note: 'x'.repeat(501) } }, 'body.config.note'],
    [{ name: 'A', type: 'printer', connection: 'usb', config: { nested: { a: 1 } } }, 'body.config.nested'],
    [{ name: 'x'.repeat(101), type: 'printer', connection: 'usb' }, 'body.name'],
  ])('400 attaching %j', async (body, path) => {
    const workstation = await workstationIn();
    const response = await t.http
      .post(workstations(owner, `/${workstation.id}/devices`))
      .set(as(owner.accessToken))
      .send(body)
      .expect(400);
    expect(detailPaths(response.body)).toContain(path);
  });

  it('too many config settings are refused', async () => {
    const workstation = await workstationIn();
    const config = Object.fromEntries(Array.from({ length: 21 }, (_, index) => [`key_${index}`, index]));
    await t.http
      .post(workstations(owner, `/${workstation.id}/devices`))
      .set(as(owner.accessToken))
      .send({ name: 'A', type: 'printer', connection: 'usb', config })
      .expect(400);
  });
});

describe('pairing', () => {
  it('a pair code is exchanged once for a credential the agent channel accepts', async () => {
    const workstation = await workstationIn();
    const code = await pairCodeFor(workstation.id);
    expect(code.pair_code).toMatch(/^[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{8}$/);
    const expiresIn = Date.parse(code.expires_at) - Date.now();
    expect(expiresIn).toBeGreaterThan(9 * 60_000);
    expect(expiresIn).toBeLessThanOrEqual(10 * 60_000);

    const response = await pair(code.pair_code.toLowerCase(), { agent_version: '1.2.3', machine_name: 'DESK-1' });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      workstation_id: workstation.id,
      hotel_slug: owner.slug,
      credential: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(await t.services.agents.authenticate(response.body.credential)).toEqual({
      workstationId: workstation.id,
      hotelId: owner.hotelId,
      hotelSlug: owner.slug,
    });
    const read = await t.http
      .get(workstations(owner, `/${workstation.id}`))
      .set(as(owner.accessToken))
      .expect(200);
    expect(read.body).toMatchObject({ paired: true, agent_version: '1.2.3', machine_name: 'DESK-1', online: false });

    const reused = await pair(code.pair_code).expect(401);
    expect(reused.body.error).toBe(INVALID_CODE);
  });

  it('unknown and expired codes get the same 401; a new code replaces the old one', async () => {
    const workstation = await workstationIn();
    const unknown = await pair('ZZZZZZZZ').expect(401);
    const first = await pairCodeFor(workstation.id);
    const second = await pairCodeFor(workstation.id);
    const replaced = await pair(first.pair_code).expect(401);
    await t
      .db('workstations')
      .where({ id: workstation.id })
      .update({ pair_code_expires_at: new Date(Date.now() - 1000) });
    const expired = await pair(second.pair_code).expect(401);
    expect(new Set([unknown.text, replaced.text, expired.text]).size).toBe(1);
    expect(expired.body.error).toBe(INVALID_CODE);
    const row = await t.db('workstations').where({ id: workstation.id }).first();
    expect(row.credential_hash).toBeNull();
  });

  it('two agents sending one code at once: one is paired, the other refused', async () => {
    const workstation = await workstationIn();
    const { pair_code } = await pairCodeFor(workstation.id);
    const statuses = (await Promise.all([pair(pair_code), pair(pair_code), pair(pair_code)])).map((r) => r.status);
    expect(statuses.sort()).toEqual([201, 401, 401]);
  });

  it('pairing again voids the old credential at once', async () => {
    const workstation = await workstationIn();
    const first = await paired(workstation.id);
    const second = await paired(workstation.id);
    expect(second.credential).not.toBe(first.credential);
    expect(await t.services.agents.authenticate(first.credential)).toBeUndefined();
    expect(await t.services.agents.authenticate(second.credential)).toMatchObject({ workstationId: workstation.id });
  });

  it('revoking voids the credential and any pending code', async () => {
    const workstation = await workstationIn();
    const { credential } = await paired(workstation.id);
    const pending = await pairCodeFor(workstation.id);
    const revoked = await t.http
      .post(workstations(owner, `/${workstation.id}/revoke`))
      .set(as(owner.accessToken))
      .expect(200);
    expect(revoked.body).toMatchObject({ paired: false, online: false, credential_issued_at: null });
    expect(await t.services.agents.authenticate(credential)).toBeUndefined();
    await pair(pending.pair_code).expect(401);
  });

  it('presence: a paired agent comes online and goes offline; an unpaired one never comes online', async () => {
    const workstation = await workstationIn();
    const connection = randomUUID();
    expect(await t.services.agents.markOnline(workstation.id, connection, { agent_version: '2.0.0' })).toBe(false);
    await paired(workstation.id);
    expect(await t.services.agents.markOnline(workstation.id, connection, { agent_version: '2.0.0' })).toBe(true);
    const online = await t.http
      .get(workstations(owner, `/${workstation.id}`))
      .set(as(owner.accessToken))
      .expect(200);
    expect(online.body).toMatchObject({ online: true, agent_version: '2.0.0', last_seen_at: expect.any(String) });
    const events = await t
      .db('realtime_events')
      .where({ hotel_id: owner.hotelId })
      .whereRaw("payload->>'workstation_id' = ?", [workstation.id])
      .select('type');
    expect(events.map((event: { type: string }) => event.type)).toContain('workstation:online');
    expect(await t.services.agents.markOffline(workstation.id, randomUUID())).toBe(false);
    expect(await t.services.agents.markOffline(workstation.id, connection)).toBe(true);
    const offline = await t.http
      .get(workstations(owner, `/${workstation.id}`))
      .set(as(owner.accessToken))
      .expect(200);
    expect(offline.body.online).toBe(false);
  });

  it('no answer carries a hash, a pair code or a credential', async () => {
    const workstation = await workstationIn();
    const { credential } = await paired(workstation.id);
    const { pair_code } = await pairCodeFor(workstation.id);
    const row = await t.db('workstations').where({ id: workstation.id }).first();
    const answers = await Promise.all([
      t.http.get(workstations(owner)).set(as(owner.accessToken)),
      t.http.get(workstations(owner, `/${workstation.id}`)).set(as(owner.accessToken)),
      t.http
        .patch(workstations(owner, `/${workstation.id}`))
        .set(as(owner.accessToken))
        .send({ name: 'Касса 2' }),
    ]);
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      for (const secret of [
        credential,
        pair_code,
        row.credential_hash,
        row.pair_code_hash,
        'credential_hash',
        'pair_code',
      ]) {
        expect(answer.text).not.toContain(secret);
      }
    }
  });

  it('a staff token opens nothing more on the agent routes, and a credential is no access token', async () => {
    const workstation = await workstationIn();
    const { credential } = await paired(workstation.id);
    const refused = await t.http.post('/api/agents/pair').set(as(owner.accessToken)).send({ pair_code: 'ZZZZZZZZ' });
    expect(refused.status).toBe(401);
    await t.http.get(workstations(owner)).set(as(credential)).expect(401);
    await t.http.get('/api/auth/me').set(as(credential)).expect(401);
  });

  it.each([{}, { pair_code: 'SHORT' }, { pair_code: 'ABCDEFG!' }])(
    'a missing or malformed code is the one 401 of a wrong one: %j',
    async (body) => {
      const refused = await t.http.post('/api/agents/pair').send(body).expect(401);
      expect(refused.body.code).toBe('invalid_pair_code');
    },
  );

  it('400 pairing with a well-formed code and a bad agent_version', async () => {
    await t.http
      .post('/api/agents/pair')
      .send({ pair_code: 'ABCDEFGH', agent_version: 'v'.repeat(51) })
      .expect(400);
  });
});

describe('agent release', () => {
  it('is public', async () => {
    const response = await t.http.get('/api/agents/latest-release').expect(200);
    expect(Object.keys(response.body).sort()).toEqual(['notes', 'published_at', 'sha256', 'url', 'version']);
  });
});
