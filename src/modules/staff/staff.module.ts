import { staffFixtures } from './staff.fixtures';
import { defineModule } from '../../platform/modules';
import type { HotelsService } from '../hotels';
import { staffActivities } from './staff.activities';
import { staffRoutes } from './staff.routes';
import { createStaffService, type StaffDependencies } from './staff.service';
import { staffEnv } from './staff.env';

export const staffModule = defineModule({
  name: 'staff',
  fixtures: staffFixtures,
  uses: ['auth', 'users', 'hotels'],
  config: staffEnv,
  create: ({ db, config }, deps: StaffDependencies & { hotels: Pick<HotelsService, 'find'> }) =>
    createStaffService(db, config, deps),
  routes: (staff) => staffRoutes(staff),
  activities: staffActivities,
});
