import { housekeepingFixtures } from './housekeeping.fixtures';
import { defineModule } from '../../platform/modules';
import { taskCreated, taskDone, taskUpdated } from './housekeeping.events';
import { housekeepingSettingsRepository } from './housekeeping.repository';
import { housekeepingRoutes } from './housekeeping.routes';
import { createHousekeepingService, type HousekeepingDependencies } from './housekeeping.service';
import { createChecklistTemplates } from './housekeeping.templates';
import { scrubbed } from '../../platform/personal-data';

export const housekeepingModule = defineModule({
  name: 'housekeeping',
  fixtures: housekeepingFixtures,
  uses: ['hotels', 'rooms', 'uploads', 'minibar'],
  personalData: [scrubbed('housekeeping_tasks', 'booking', [{ name: 'notes' }, { name: 'resolution_notes' }])],
  create: ({ db }, deps: HousekeepingDependencies) => ({
    ...createHousekeepingService(db, deps),
    templates: createChecklistTemplates(db),
  }),
  events: [taskCreated, taskUpdated, taskDone],
  routes: (housekeeping) => housekeepingRoutes(housekeeping, housekeeping.templates),
  onHotelCreated: (_housekeeping, trx, hotelId) => housekeepingSettingsRepository.insertDefaults(trx, hotelId),
});
