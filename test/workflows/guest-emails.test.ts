import { Client, Connection } from '@temporalio/client';
import { createActivities } from '../../activities';
import { freePort } from '../../scripts/stack/ports';
import { createMailer, type Mailer } from '../../src/platform/mail';
import type { BookingActivities } from '../../workflows/contracts/bookings';
import { createTestApp, type TestApp } from '../helpers/app';
import { as, registerHotel, uniqueEmail, type RegisteredHotel } from '../helpers/accounts';
import { messagesTo, waitForMessages } from '../helpers/mail';
import { readStackInfo } from '../helpers/stack-env';
import { createCategory, createRoom } from '../helpers/structure';
import { outboxWorkflowsAtRest, resultOnceStarted } from '../helpers/workflows';
import { localDay } from '../helpers/dates';

let t: TestApp;
let connection: Connection;
let client: Client;
let mailer: Mailer;
let activities: BookingActivities;

beforeAll(async () => {
  t = createTestApp();
  connection = await Connection.connect({ address: readStackInfo().env.TEMPORAL_ADDRESS });
  client = new Client({ connection });
  mailer = createMailer(readStackInfo().env.SMTP_URL, t.config.mailFrom);
  activities = createActivities({ db: t.db, config: t.config, mailer }) as BookingActivities;
});
afterAll(async () => {
  mailer.close();
  await connection.close();
  await t.close();
});

const api = (hotel: RegisteredHotel, path: string) => `/api/hotels/${hotel.slug}${path}`;
async function onlineHotel(guestLanguage?: 'ru' | 'en') {
  const hotel = await registerHotel(t, { hotel_name: `Бриз <Sea> & "Sun" ${Math.random().toString(36).slice(2, 8)}` });
  if (guestLanguage)
    await t.http
      .patch(api(hotel, '/settings'))
      .set(as(hotel.accessToken))
      .send({ guest_language: guestLanguage })
      .expect(200);
  const category = await createCategory(t, hotel, { name: 'Люкс <с видом>', base_price: 4000 });
  const room = await createRoom(t, hotel, category.id);
  const { body: settings } = await t.http.get(api(hotel, '')).set(as(hotel.accessToken)).expect(200);
  const book = async (body: Record<string, unknown>) => {
    const response = await t.http
      .post(api(hotel, '/bookings'))
      .set(as(hotel.accessToken))
      .send({
        room_id: room.id,
        check_in: localDay(3),
        check_out: localDay(5),
        guest_last_name: 'Петрова',
        guest_first_name: 'Анна',
        source: 'online',
        status: 'inquiry',
        ...body,
      })
      .expect(201);
    return response.body as { id: string; check_in: string; check_out: string };
  };
  const setStatus = (bookingId: string, status: string) =>
    t.http
      .patch(api(hotel, `/bookings/${bookingId}`))
      .set(as(hotel.accessToken))
      .send({ status })
      .expect(200);
  return { hotel, hotelName: settings.name as string, book, setStatus };
}

/** Whatever the booking's workflow was asked so far has been done, e-mails included. */
function workflowAtRest(bookingId: string) {
  return outboxWorkflowsAtRest(t.db, client, (outbox) => outbox.where('workflow_id', `booking:${bookingId}`), {
    what: `the workflow of booking ${bookingId} at rest`,
  });
}

const finalStatus = (bookingId: string) => resultOnceStarted(client, `booking:${bookingId}`);
const subjectsTo = async (address: string) => (await messagesTo(address)).map((message) => message.subject);

describe('guest e-mails of online bookings', () => {
  it('received at submission, confirmed, then cancelled: one each, in the hotel language, with the booking details', async () => {
    const { hotelName, book, setStatus } = await onlineHotel();
    const guest = uniqueEmail('guest');
    const booking = await book({ guest_email: guest });

    const [received] = await waitForMessages(guest, 1);
    await workflowAtRest(booking.id);
    expect(await subjectsTo(guest)).toEqual([`Заявка на бронирование получена — ${hotelName}`]);
    const day = new Intl.DateTimeFormat('ru-RU', { dateStyle: 'long', timeZone: 'UTC' });
    expect(received.text).toContain('Здравствуйте, Анна!');
    expect(received.text).toContain(`Номер бронирования: ${booking.id.slice(0, 8).toUpperCase()}`);
    expect(received.text).toContain('Категория номера: Люкс <с видом>');
    expect(received.text).toContain(`Заезд: ${day.format(new Date(`${booking.check_in}T00:00:00Z`))}`);
    expect(received.text).toContain(`Выезд: ${day.format(new Date(`${booking.check_out}T00:00:00Z`))}`);
    expect(received.text).toMatch(/Стоимость: 8\s000,00\s₽/u);
    expect(received.html).toContain('Бриз &lt;Sea&gt; &amp; &quot;Sun&quot;');
    expect(received.html).toContain('Люкс &lt;с видом&gt;');
    expect(received.html).not.toContain('<Sea>');

    await setStatus(booking.id, 'confirmed');
    await waitForMessages(guest, 2);
    await setStatus(booking.id, 'cancelled');
    expect(await finalStatus(booking.id)).toBe('cancelled');
    expect(await subjectsTo(guest)).toEqual([
      `Заявка на бронирование получена — ${hotelName}`,
      `Бронирование подтверждено — ${hotelName}`,
      `Бронирование отменено — ${hotelName}`,
    ]);
  });

  it('a booking made confirmed at once gets the confirmation alone, and nothing at check-in or check-out', async () => {
    const { book, setStatus } = await onlineHotel();
    const guest = uniqueEmail('guest');
    const booking = await book({ guest_email: guest, status: 'confirmed', check_in: localDay(-1) });
    await waitForMessages(guest, 1);
    await setStatus(booking.id, 'checked_in');
    await setStatus(booking.id, 'checked_out');
    expect(await finalStatus(booking.id)).toBe('checked_out');
    expect((await subjectsTo(guest)).map((subject) => subject.split(' — ')[0])).toEqual(['Бронирование подтверждено']);
  });

  it('writes in English when the hotel writes to its guests in English', async () => {
    const { hotelName, book, setStatus } = await onlineHotel('en');
    const guest = uniqueEmail('guest');
    const booking = await book({ guest_email: guest, guest_first_name: 'Anna' });
    const [received] = await waitForMessages(guest, 1);
    expect(received.subject).toBe(`Booking request received — ${hotelName}`);
    expect(received.text).toContain('Hello, Anna!');
    expect(received.text).toContain(`Booking reference: ${booking.id.slice(0, 8).toUpperCase()}`);
    expect(received.text).toMatch(/Price: RUB\s8,000\.00/u);
    await setStatus(booking.id, 'cancelled');
    expect(await finalStatus(booking.id)).toBe('cancelled');
    expect(await subjectsTo(guest)).toEqual([
      `Booking request received — ${hotelName}`,
      `Booking cancelled — ${hotelName}`,
    ]);
  });

  it('a desk booking gets none, nor an online one without an address', async () => {
    const { hotel, book, setStatus } = await onlineHotel();
    const guest = uniqueEmail('guest');
    const desk = await book({ guest_email: guest, source: 'front_desk' });
    await setStatus(desk.id, 'confirmed');
    await setStatus(desk.id, 'cancelled');
    const silent = await book({ check_in: localDay(6), check_out: localDay(7) });
    await setStatus(silent.id, 'cancelled');
    expect(await finalStatus(desk.id)).toBe('cancelled');
    expect(await finalStatus(silent.id)).toBe('cancelled');
    expect(await messagesTo(guest)).toEqual([]);
    expect(await t.db('mail_claims').where('key', 'like', `guest-email:${hotel.hotelId}:%`)).toEqual([]);
  });
});

describe('the sending activity', () => {
  async function receivedBooking() {
    const { book } = await onlineHotel();
    const guest = uniqueEmail('guest');
    const booking = await book({ guest_email: guest });
    await waitForMessages(guest, 1);
    await workflowAtRest(booking.id);
    const hotelId = (await t.db('bookings').where({ id: booking.id }).first('hotel_id')).hotel_id as string;
    return { guest, hotelId, bookingId: booking.id };
  }

  it('run again, sends nothing more', async () => {
    const { guest, hotelId, bookingId } = await receivedBooking();
    expect(await activities.sendGuestBookingEmail(hotelId, bookingId, 'received')).toBe('already_sent');
    expect(await activities.sendGuestBookingEmail(hotelId, bookingId, 'confirmed')).toBe('sent');
    expect(await activities.sendGuestBookingEmail(hotelId, bookingId, 'confirmed')).toBe('already_sent');
    expect(await messagesTo(guest)).toHaveLength(2);
  });

  it('fails while the mail server is down, taking nothing on, and sends once it is back', async () => {
    const { guest, hotelId, bookingId } = await receivedBooking();
    const down = createMailer(`smtp://127.0.0.1:${await freePort()}`, t.config.mailFrom);
    try {
      const offline = createActivities({ db: t.db, config: t.config, mailer: down }) as BookingActivities;
      await expect(offline.sendGuestBookingEmail(hotelId, bookingId, 'cancelled')).rejects.toThrow();
    } finally {
      down.close();
    }
    expect(await t.db('mail_claims').where({ key: `guest-email:${hotelId}:${bookingId}:cancelled` })).toEqual([]);
    expect(await activities.sendGuestBookingEmail(hotelId, bookingId, 'cancelled')).toBe('sent');
    expect(await messagesTo(guest)).toHaveLength(2);
  });

  it('an e-mail another attempt took on is awaited while that attempt may live, and never sent after', async () => {
    const { guest, hotelId, bookingId } = await receivedBooking();
    await t
      .db('mail_claims')
      .insert([
        { key: `guest-email:${hotelId}:${bookingId}:confirmed`, claimed_at: t.db.raw("now() - interval '1 hour'") },
        { key: `guest-email:${hotelId}:${bookingId}:cancelled` },
      ]);
    expect(await activities.sendGuestBookingEmail(hotelId, bookingId, 'confirmed')).toBe('in_doubt');
    await expect(activities.sendGuestBookingEmail(hotelId, bookingId, 'cancelled')).rejects.toMatchObject({
      type: 'GuestEmailBusy',
    });
    expect(await messagesTo(guest)).toHaveLength(1);
  });
});
