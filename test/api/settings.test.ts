import { decryptSecret } from '../../src/platform/crypto';
import { createTestApp, type TestApp } from '../helpers/app';
import { addStaff, as, registerHotel, type RegisteredHotel } from '../helpers/accounts';

let t: TestApp;
let owner: RegisteredHotel;
beforeAll(async () => {
  t = createTestApp();
  owner = await registerHotel(t);
});
afterAll(() => t.close());

describe('hotel settings', () => {
  it('starts with defaults for a new hotel', async () => {
    const response = await t.http.get(`/api/hotels/${owner.slug}/settings`).set(as(owner.accessToken)).expect(200);
    expect(response.body).toMatchObject({
      check_in_time: '14:00',
      check_out_time: '12:00',
      early_checkin_enabled: false,
      late_checkout_enabled: false,
      no_show_auto_cancel: false,
      auto_checkout: false,
      room_assignment_strategy: 'manual',
      smtp_password_set: false,
      guest_language: 'ru',
    });
  });

  it('updates house rules and the hotel times together', async () => {
    const response = await t.http
      .patch(`/api/hotels/${owner.slug}/settings`)
      .set(as(owner.accessToken))
      .send({
        check_in_time: '15:00',
        check_out_time: '11:00',
        no_show_auto_cancel: true,
        no_show_hours: 6,
        auto_checkout: true,
        auto_checkout_hours: 3,
        room_assignment_strategy: 'spread',
        guest_language: 'en',
      })
      .expect(200);
    expect(response.body).toMatchObject({
      check_in_time: '15:00',
      check_out_time: '11:00',
      no_show_hours: 6,
      auto_checkout_hours: 3,
      room_assignment_strategy: 'spread',
      guest_language: 'en',
    });
    const hotel = await t.http.get(`/api/hotels/${owner.slug}`).set(as(owner.accessToken)).expect(200);
    expect(hotel.body).toMatchObject({ check_in_time: '15:00', check_out_time: '11:00' });
  });

  it('stores the SMTP password encrypted and never returns it', async () => {
    const response = await t.http
      .patch(`/api/hotels/${owner.slug}/settings`)
      .set(as(owner.accessToken))
      .send({
        smtp_host: '203.0.113.25',
        smtp_port: 465,
        smtp_secure: true,
        smtp_user: 'hotel',
        smtp_password: 'S3cr3t!pass',
      })
      .expect(200);
    expect(response.body).toMatchObject({ smtp_host: '203.0.113.25', smtp_port: 465, smtp_password_set: true });
    expect(JSON.stringify(response.body)).not.toContain('S3cr3t!pass');
    const row = await t.db('hotel_settings').where({ hotel_id: owner.hotelId }).first();
    expect(row.smtp_password_encrypted).not.toContain('S3cr3t!pass');
    expect(decryptSecret(row.smtp_password_encrypted, t.config.encryption)).toBe('S3cr3t!pass');

    const cleared = await t.http
      .patch(`/api/hotels/${owner.slug}/settings`)
      .set(as(owner.accessToken))
      .send({ smtp_password: null })
      .expect(200);
    expect(cleared.body.smtp_password_set).toBe(false);
  });

  it.each([
    [{ room_assignment_strategy: 'random' }],
    [{ guest_language: 'de' }],
    [{ no_show_hours: 0 }],
    [{ check_in_time: '14:60' }],
    [{ smtp_port: 70000 }],
    [{ smtp_host: 'not a host!' }],
    [{}],
  ])('400 for %j and nothing changes', async (body) => {
    const before = await t.db('hotel_settings').where({ hotel_id: owner.hotelId }).first();
    await t.http.patch(`/api/hotels/${owner.slug}/settings`).set(as(owner.accessToken)).send(body).expect(400);
    expect(await t.db('hotel_settings').where({ hotel_id: owner.hotelId }).first()).toEqual(before);
  });

  it('staff read, only owner and managers change; another hotel gets 403', async () => {
    const maid = await addStaff(t, owner, 'housekeeper');
    await t.http.get(`/api/hotels/${owner.slug}/settings`).set(as(maid.accessToken)).expect(200);
    await t.http
      .patch(`/api/hotels/${owner.slug}/settings`)
      .set(as(maid.accessToken))
      .send({ auto_checkout: false })
      .expect(403);
    const stranger = await registerHotel(t);
    await t.http.get(`/api/hotels/${owner.slug}/settings`).set(as(stranger.accessToken)).expect(403);
  });
});
