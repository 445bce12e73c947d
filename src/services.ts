import type { Config } from './config';
import type { Db } from './platform/db/knex';
import { createAuthService } from './modules/auth';
import { createHotelsService } from './modules/hotels';
import { createStaffService } from './modules/staff';
import { createRoomsService } from './modules/rooms';
import { createPricingService, createQuoteService } from './modules/pricing';
import { createChecklistTemplates, createHousekeepingService } from './modules/housekeeping';
import { createUploadsService } from './modules/uploads';
import { createMinibarService } from './modules/minibar';
import { createGuestsService } from './modules/guests';
import { createNotificationsService } from './modules/notifications';
import { createStorage } from './platform/storage';
import { createBookingsService } from './modules/bookings';
import { createPaymentsService } from './modules/payments';

/** The request-time services of every area, built once per process from its dependencies. */
export function createServices(db: Db, config: Config) {
  const quotes = createQuoteService(db);
  const housekeeping = createHousekeepingService(db, config.cdnUrl);
  const auth = createAuthService(db, config);
  return {
    auth,
    hotels: createHotelsService(db, config),
    staff: createStaffService(db, config, { auth }),
    rooms: createRoomsService(db, config.cdnUrl),
    pricing: createPricingService(db),
    quotes,
    housekeeping,
    checklistTemplates: createChecklistTemplates(db),
    uploads: createUploadsService(db, config, createStorage(config.storage)),
    minibar: createMinibarService(db),
    bookings: createBookingsService(db, config, { quotes, housekeeping }),
    payments: createPaymentsService(db),
    guests: createGuestsService(db, config),
    notifications: createNotificationsService(db),
  };
}

export type Services = ReturnType<typeof createServices>;
