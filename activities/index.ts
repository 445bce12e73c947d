import type { Config } from '../src/config';
import { MODULES } from '../src/modules/registry';
import type { Db } from '../src/platform/db/knex';
import type { Mailer } from '../src/platform/mail';
import { buildModules } from '../src/platform/modules';
import type { ScheduleDefinition } from '../src/platform/temporal/schedules';

export interface ActivityDependencies {
  db: Db;
  config: Config;
  mailer: Mailer;
}

/** Every activity the worker registers, collected from the modules (thin calls into their services). */
export function createActivities({ db, config, mailer }: ActivityDependencies) {
  return buildModules(MODULES, { db, config }).activities(mailer);
}

/** Every recurring job of the service, declared by the modules; each worker registers them at start-up. */
export function moduleSchedules(): ScheduleDefinition[] {
  return MODULES.flatMap((module) => module.schedules ?? []);
}
