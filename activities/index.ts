import type { Config } from '../src/config';
import { createAccountEmails } from '../src/modules/auth';
import { createStaffInvitations } from '../src/modules/staff';
import type { Db } from '../src/platform/db/knex';
import type { Mailer } from '../src/platform/mail';
import { createAccountActivities } from './accounts.activities';
import { createMaintenanceActivities } from './maintenance.activities';
import { createBookingActivities } from './bookings.activities';
import { createBookingJobs } from '../src/modules/bookings';
import { createServices } from '../src/services';

export interface ActivityDependencies {
  db: Db;
  config: Config;
  mailer: Mailer;
}

/** Every activity the worker registers: thin calls into module services. */
export function createActivities({ db, config, mailer }: ActivityDependencies) {
  const services = createServices(db, config);
  return {
    ...createAccountActivities(
      services.auth,
      createAccountEmails(db, config, mailer),
      createStaffInvitations(db, config, mailer),
    ),
    ...createMaintenanceActivities(db, config),
    ...createBookingActivities(createBookingJobs(db, services.bookings)),
  };
}
