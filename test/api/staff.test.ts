import { createTestApp, type TestApp } from '../helpers/app';
import { addStaff, as, refreshCookieOf, registerHotel, uniqueEmail, type RegisteredHotel } from '../helpers/accounts';
import { linkIn, tokenOf, waitForMessages } from '../helpers/mail';
import { problem } from '../helpers/problem';

const INVITE_PREFIX = 'http://app.test/accept-invite?token=';

let t: TestApp;
let owner: RegisteredHotel;
let other: RegisteredHotel;
beforeAll(async () => {
  t = createTestApp();
  [owner, other] = await Promise.all([registerHotel(t), registerHotel(t)]);
});
afterAll(() => t.close());

describe('POST /api/hotels/{slug}/users', () => {
  it('with a password: an active, confirmed account that can sign in at once', async () => {
    const email = uniqueEmail('desk');
    const response = await t.http
      .post(`/api/hotels/${owner.slug}/users`)
      .set(as(owner.accessToken))
      .send({
        name: 'Анна',
        email: email.toUpperCase(),
        role: 'receptionist',
        password: 'deskpass1',
        position: 'Администратор',
      })
      .expect(201);
    expect(response.body).toMatchObject({
      hotel_id: owner.hotelId,
      email,
      role: 'receptionist',
      active: true,
      email_confirmed: true,
      position: 'Администратор',
      invitation_status: null,
    });
    expect(response.body).not.toHaveProperty('password_hash');
    expect(JSON.stringify(response.body)).not.toMatch(/token/);
    const login = await t.http.post('/api/auth/login').send({ email, password: 'deskpass1' }).expect(200);
    expect(login.body.user).toMatchObject({ role: 'receptionist', hotelSlug: owner.slug });
  });

  it('without a password: inactive, e-mailed a 7-day invitation that signs the member in when accepted', async () => {
    const email = uniqueEmail('maid');
    const created = await t.http
      .post(`/api/hotels/${owner.slug}/users`)
      .set(as(owner.accessToken))
      .send({ name: 'Мария', email, role: 'housekeeper' })
      .expect(201);
    expect(created.body).toMatchObject({ active: false, email_confirmed: false, invitation_status: 'pending' });
    const validForMs = new Date(created.body.invite_expires).getTime() - Date.now();
    expect(validForMs).toBeGreaterThan(7 * 24 * 3600_000 - 60_000);
    expect(validForMs).toBeLessThanOrEqual(7 * 24 * 3600_000);

    const [message] = await waitForMessages(email);
    const token = tokenOf(linkIn(message, INVITE_PREFIX));
    expect(token).toMatch(/^[0-9a-f]{64}$/);

    const accepted = await t.http.post('/api/auth/accept-invite').send({ token, password: '123456' }).expect(200);
    expect(accepted.body).toEqual({
      access_token: expect.any(String),
      user: {
        id: created.body.id,
        email,
        name: 'Мария',
        role: 'housekeeper',
        hotelId: owner.hotelId,
        hotelSlug: owner.slug,
      },
    });
    expect(refreshCookieOf(accepted.headers['set-cookie'])).toMatch(/^refresh_token=[0-9a-f]{80}$/);
    const user = await t.db('users').where({ id: created.body.id }).first();
    expect(user).toMatchObject({
      active: true,
      email_confirmed: true,
      invite_token: null,
      invitation_status: 'accepted',
    });

    await t.http.post('/api/auth/accept-invite').send({ token, password: '123456' }).expect(400);
    await t.http.post('/api/auth/login').send({ email, password: '123456' }).expect(200);
  });

  it('accept-invite: 400 for unknown or expired tokens and short passwords', async () => {
    const email = uniqueEmail('late');
    const created = await t.http
      .post(`/api/hotels/${owner.slug}/users`)
      .set(as(owner.accessToken))
      .send({ name: 'Пётр', email, role: 'technician' })
      .expect(201);
    const token = tokenOf(linkIn((await waitForMessages(email))[0], INVITE_PREFIX));
    await t.http.post('/api/auth/accept-invite').send({ token, password: '12345' }).expect(400);
    await t
      .db('users')
      .where({ id: created.body.id })
      .update({ invite_expires: t.db.raw("now() - interval '1 second'") });
    const expired = await t.http.post('/api/auth/accept-invite').send({ token, password: '123456' }).expect(400);
    expect(expired.body).toEqual(problem(400, 'validation_failed', 'Ссылка недействительна или истекла'));
    const unknown = await t.http
      .post('/api/auth/accept-invite')
      .send({ token: 'a'.repeat(64), password: '123456' })
      .expect(400);
    expect(unknown.body).toEqual(problem(400, 'validation_failed', 'Ссылка недействительна или истекла'));
  });

  it('409 for an e-mail already used in any hotel', async () => {
    const response = await t.http
      .post(`/api/hotels/${owner.slug}/users`)
      .set(as(owner.accessToken))
      .send({ name: 'Дубль', email: other.email, role: 'manager', password: 'dupepass1' })
      .expect(409);
    expect(response.body).toEqual(problem(409, 'email_taken', 'Пользователь с таким email уже существует'));
  });

  it('403 for the hotel_admin role, 400 for super_admin or an unknown role', async () => {
    const body = (role: string) => ({ name: 'Новый', email: uniqueEmail('admin'), role, password: 'adminpass1' });
    await t.http
      .post(`/api/hotels/${owner.slug}/users`)
      .set(as(owner.accessToken))
      .send(body('hotel_admin'))
      .expect(403);
    await t.http
      .post(`/api/hotels/${owner.slug}/users`)
      .set(as(owner.accessToken))
      .send(body('super_admin'))
      .expect(400);
    await t.http.post(`/api/hotels/${owner.slug}/users`).set(as(owner.accessToken)).send(body('janitor')).expect(400);
  });

  it.each(['name', 'email', 'role'])('400 without %s', async (field) => {
    const body: Record<string, string> = { name: 'Кто-то', email: uniqueEmail('x'), role: 'security' };
    delete body[field];
    const response = await t.http
      .post(`/api/hotels/${owner.slug}/users`)
      .set(as(owner.accessToken))
      .send(body)
      .expect(400);
    expect(response.body.details[0].path).toBe(`body.${field}`);
  });

  it('a manager may add staff and give any non-admin role, including manager', async () => {
    const manager = await addStaff(t, owner, 'manager');
    await t.http
      .post(`/api/hotels/${owner.slug}/users`)
      .set(as(manager.accessToken))
      .send({ name: 'Второй менеджер', email: uniqueEmail('m2'), role: 'manager', password: 'managerpass1' })
      .expect(201);
  });

  it.each(['receptionist', 'accountant', 'security', 'technician', 'housekeeper'])('403 for a %s', async (role) => {
    const member = await addStaff(t, owner, role);
    await t.http
      .post(`/api/hotels/${owner.slug}/users`)
      .set(as(member.accessToken))
      .send({ name: 'Нельзя', email: uniqueEmail('no'), role: 'housekeeper', password: 'nopass123' })
      .expect(403);
  });
});

describe('GET /api/hotels/{slug}/users', () => {
  it("lists only this hotel's staff, filterable by role and active, without secrets", async () => {
    const member = await addStaff(t, owner, 'accountant');
    const all = await t.http.get(`/api/hotels/${owner.slug}/users`).set(as(member.accessToken)).expect(200);
    expect(all.body.every((u: { hotel_id: string }) => u.hotel_id === owner.hotelId)).toBe(true);
    expect(all.body.map((u: { id: string }) => u.id)).toEqual(expect.arrayContaining([owner.userId, member.id]));
    expect(JSON.stringify(all.body)).not.toMatch(/password_hash|invite_token|reset_token|confirmation_token/);

    const accountants = await t.http
      .get(`/api/hotels/${owner.slug}/users?role=accountant&active=true`)
      .set(as(owner.accessToken))
      .expect(200);
    expect(accountants.body.length).toBeGreaterThan(0);
    expect(accountants.body.every((u: { role: string; active: boolean }) => u.role === 'accountant' && u.active)).toBe(
      true,
    );
    await t.http.get(`/api/hotels/${owner.slug}/users?role=pilot`).set(as(owner.accessToken)).expect(400);
  });
});

describe('PATCH and DELETE /api/hotels/{slug}/users/{id}', () => {
  it("updates phone, position, role and active; deactivation ends the member's sessions", async () => {
    const member = await addStaff(t, owner, 'receptionist');
    const login = await t.http
      .post('/api/auth/login')
      .send({ email: member.email, password: member.password })
      .expect(200);
    const response = await t.http
      .patch(`/api/hotels/${owner.slug}/users/${member.id}`)
      .set(as(owner.accessToken))
      .send({ phone: '+70001112233', position: 'Старший администратор', role: 'accountant', active: false })
      .expect(200);
    expect(response.body).toMatchObject({
      phone: '+70001112233',
      position: 'Старший администратор',
      role: 'accountant',
      active: false,
    });
    await t.http.post('/api/auth/refresh').set('Cookie', refreshCookieOf(login.headers['set-cookie'])).expect(401);
  });

  it('nobody but super_admin edits or deletes the owner', async () => {
    const manager = await addStaff(t, owner, 'manager');
    await t.http
      .patch(`/api/hotels/${owner.slug}/users/${owner.userId}`)
      .set(as(manager.accessToken))
      .send({ position: 'x' })
      .expect(403);
    await t.http.delete(`/api/hotels/${owner.slug}/users/${owner.userId}`).set(as(manager.accessToken)).expect(403);
    const self = await t.http
      .patch(`/api/hotels/${owner.slug}/users/${owner.userId}`)
      .set(as(owner.accessToken))
      .send({ position: 'Владелец' })
      .expect(403);
    expect(self.body.error).toBe('Владельца отеля может изменить или удалить только super_admin');
  });

  it('the role hotel_admin cannot be assigned', async () => {
    const member = await addStaff(t, owner, 'receptionist');
    const response = await t.http
      .patch(`/api/hotels/${owner.slug}/users/${member.id}`)
      .set(as(owner.accessToken))
      .send({ role: 'hotel_admin' })
      .expect(403);
    expect(response.body.error).toBe('Роль администратора отеля нельзя назначить');
    expect((await t.db('users').where({ id: member.id }).first()).role).toBe('receptionist');
  });

  it('a manager cannot change their own role or deactivate themselves (422), but may edit their phone', async () => {
    const manager = await addStaff(t, owner, 'manager');
    const path = `/api/hotels/${owner.slug}/users/${manager.id}`;
    await t.http.patch(path).set(as(manager.accessToken)).send({ role: 'receptionist' }).expect(422);
    await t.http.patch(path).set(as(manager.accessToken)).send({ active: false }).expect(422);
    await t.http.patch(path).set(as(manager.accessToken)).send({ phone: '+79995554433' }).expect(200);
    await t.http.delete(path).set(as(manager.accessToken)).expect(422);
    // The refusals changed nothing: still an active manager, who still signs in; only the phone is new.
    const members = await t.http.get(`/api/hotels/${owner.slug}/users`).set(as(owner.accessToken)).expect(200);
    expect(members.body.find((member: { id: string }) => member.id === manager.id)).toMatchObject({
      role: 'manager',
      active: true,
      phone: '+79995554433',
    });
    await t.http.post('/api/auth/login').send({ email: manager.email, password: manager.password }).expect(200);
  });

  it('400 for an empty body or a bad id, 404 for an unknown member', async () => {
    const member = await addStaff(t, owner, 'security');
    await t.http.patch(`/api/hotels/${owner.slug}/users/${member.id}`).set(as(owner.accessToken)).send({}).expect(400);
    await t.http
      .patch(`/api/hotels/${owner.slug}/users/not-a-uuid`)
      .set(as(owner.accessToken))
      .send({ phone: '12345' })
      .expect(400);
    await t.http
      .patch(`/api/hotels/${owner.slug}/users/00000000-0000-4000-8000-000000000000`)
      .set(as(owner.accessToken))
      .send({ phone: '123456' })
      .expect(404);
  });

  it('deletes a member, who can no longer sign in', async () => {
    const member = await addStaff(t, owner, 'technician');
    await t.http
      .delete(`/api/hotels/${owner.slug}/users/${member.id}`)
      .set(as(owner.accessToken))
      .expect(200, { ok: true });
    await t.http.post('/api/auth/login').send({ email: member.email, password: member.password }).expect(401);
    await t.http.delete(`/api/hotels/${owner.slug}/users/${member.id}`).set(as(owner.accessToken)).expect(404);
  });
});

describe('another hotel', () => {
  it('its staff get 403 on every staff route of ours, and our members are untouched', async () => {
    const member = await addStaff(t, owner, 'receptionist');
    const headers = as(other.accessToken);
    await t.http.get(`/api/hotels/${owner.slug}/users`).set(headers).expect(403);
    await t.http
      .post(`/api/hotels/${owner.slug}/users`)
      .set(headers)
      .send({ name: 'Шпион', email: uniqueEmail('spy'), role: 'manager', password: 'spypass12' })
      .expect(403);
    await t.http
      .patch(`/api/hotels/${owner.slug}/users/${member.id}`)
      .set(headers)
      .send({ role: 'manager' })
      .expect(403);
    await t.http.delete(`/api/hotels/${owner.slug}/users/${member.id}`).set(headers).expect(403);
    expect((await t.db('users').where({ id: member.id }).first()).role).toBe('receptionist');
  });

  it('our ids through their own slug are not found (404), never changed', async () => {
    const member = await addStaff(t, owner, 'receptionist');
    await t.http
      .patch(`/api/hotels/${other.slug}/users/${member.id}`)
      .set(as(other.accessToken))
      .send({ role: 'manager' })
      .expect(404);
    await t.http.delete(`/api/hotels/${other.slug}/users/${member.id}`).set(as(other.accessToken)).expect(404);
    expect(await t.db('users').where({ id: member.id }).first()).toMatchObject({ role: 'receptionist' });
  });

  it('a slug that does not exist answers the same 403 as a foreign one', async () => {
    const response = await t.http
      .get('/api/hotels/no-such-hotel-anywhere/users')
      .set(as(owner.accessToken))
      .expect(403);
    expect(response.body).toEqual(problem(403, 'foreign_hotel', 'Нет доступа к этому отелю'));
  });
});
