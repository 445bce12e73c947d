import { as, registerHotel } from '../helpers/accounts';
import { startTestServer, type TestServer } from '../helpers/realtime';
import { readStackInfo } from '../helpers/stack-env';
import { createCategory, createRoom } from '../helpers/structure';
import { until } from '../helpers/wait';
import { fakeYooKassaControl } from '../fakes/yookassa';
import { localDay } from '../helpers/dates';

/** A widget booking paid online: the answer carries the provider's page, and the payment confirms the booking. */

let t: TestServer;
const fake = fakeYooKassaControl(readStackInfo().env.YOOKASSA_FAKE_URL);

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

it('answers with the payment page, and a succeeded payment confirms the booking with one payment row', async () => {
  const hotel = await registerHotel(t);
  const shopId = `${process.pid}${Date.now() % 100000}`;
  await fake.openShop(shopId, `widget_${shopId}`, `${t.baseUrl}/api/payments/yookassa/notifications`);
  await t.http
    .post(`/api/hotels/${hotel.slug}/payment-gateways`)
    .set(as(hotel.accessToken))
    .send({ provider: 'yookassa', shop_id: shopId, secret_key: `widget_${shopId}`, auto_confirm_on_payment: true })
    .expect(201);
  const category = await createCategory(t, hotel, { base_price: 3000 });
  await createRoom(t, hotel, category.id);

  const { body } = await t.http
    .post(`/api/widget/${hotel.slug}/bookings`)
    .send({
      category_id: category.id,
      check_in: localDay(5),
      check_out: localDay(6),
      guest_last_name: 'Белова',
      guest_first_name: 'Ольга',
      guest_phone: '+79995550101',
      return_url: 'https://hotel.example/thanks',
    })
    .expect(201);
  expect(body.payment).toMatchObject({ status: 'pending', amount: '3000.00' });
  expect(body.payment.confirmation_url).toEqual(expect.stringContaining('/payer/'));

  await fake.pay(body.payment.confirmation_url, 'success');
  const booking = await until(
    async () => {
      const { body: stored } = await t.http
        .get(`/api/hotels/${hotel.slug}/bookings/${body.booking.id}`)
        .set(as(hotel.accessToken));
      return stored.status === 'confirmed' && stored;
    },
    { what: 'the widget booking confirmed by its payment', intervalMs: 100 },
  );
  expect(booking).toMatchObject({ source: 'online', paid_amount: '3000.00', balance: '0.00' });
  const [atProvider] = await fake.payments(shopId);
  expect(atProvider.payment.confirmation).toMatchObject({ return_url: 'https://hotel.example/thanks' });
});
