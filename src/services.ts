import type { Config } from './config';
import type { Db } from './platform/db/knex';
import { createAuthService } from './modules/auth';
import { createHotelsService } from './modules/hotels';
import { createStaffService } from './modules/staff';

/** The request-time services of every area, built once per process from its dependencies. */
export function createServices(db: Db, config: Config) {
  return {
    auth: createAuthService(db, config),
    hotels: createHotelsService(db),
    staff: createStaffService(db, config),
  };
}

export type Services = ReturnType<typeof createServices>;
