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
import { createStorage } from './platform/storage';

/** The request-time services of every area, built once per process from its dependencies. */
export function createServices(db: Db, config: Config) {
  return {
    auth: createAuthService(db, config),
    hotels: createHotelsService(db, config),
    staff: createStaffService(db, config),
    rooms: createRoomsService(db, config.cdnUrl),
    pricing: createPricingService(db),
    quotes: createQuoteService(db),
    housekeeping: createHousekeepingService(db, config.cdnUrl),
    checklistTemplates: createChecklistTemplates(db),
    uploads: createUploadsService(db, config, createStorage(config.storage)),
    minibar: createMinibarService(db),
  };
}

export type Services = ReturnType<typeof createServices>;
