import { lockvendorFixtures } from './lockvendor.fixtures';
import { defineModule } from '../../platform/modules';
import { configRepository } from './lockvendor.repository';
import { lockvendorRoutes } from './lockvendor.routes';
import { createLockvendorService, type LockvendorDependencies } from './lockvendor.service';
import { lockvendorEnv } from './lockvendor.env';

/** The hotel's door-lock cloud (TTLock): its account, its locks, and which lock is on which room's door. */
export const lockvendorModule = defineModule({
  name: 'lockvendor',
  fixtures: lockvendorFixtures,
  uses: ['rooms'],
  config: lockvendorEnv,
  create: ({ db, config }, deps: LockvendorDependencies) => createLockvendorService(db, config, deps),
  routes: (lockvendor) => lockvendorRoutes(lockvendor),
  onHotelCreated: (_lockvendor, trx, hotelId) => configRepository.insertDefaults(trx, hotelId),
});
