import { paymentsFixtures } from './payments.fixtures';
import { defineModule } from '../../platform/modules';
import { paymentsEnv } from './payments.env';
import { paymentsRoutes } from './payments.routes';
import { paymentSettingsRepository } from './payments.repository';
import { createPaymentsService } from './payments.service';
import { scrubbed } from '../../platform/personal-data';

export const paymentsModule = defineModule({
  name: 'payments',
  fixtures: paymentsFixtures,
  uses: [],
  config: paymentsEnv,
  personalData: [scrubbed('booking_payments', 'booking', [{ name: 'note' }])],
  create: ({ db, config }) => createPaymentsService(db, config),
  routes: (payments) => paymentsRoutes(payments),
  onHotelCreated: (_payments, trx, hotelId) => paymentSettingsRepository.insertDefaults(trx, hotelId),
});
