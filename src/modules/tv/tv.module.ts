import { tvFixtures } from './tv.fixtures';
import { defineModule } from '../../platform/modules';
import { tvActivities } from './tv.activities';
import { tvStayFollower } from './tv.follower';
import { settingsRepository } from './tv.repository';
import { tvRoutes } from './tv.routes';
import { createTvService, type TvDependencies } from './tv.service';
import { scrubbed } from '../../platform/personal-data';

/** The hotel TV system: it greets guests by name, told of check-ins and check-outs, and polls the stays in house. */
export const tvModule = defineModule({
  name: 'tv',
  fixtures: tvFixtures,
  uses: ['hotels', 'rooms', 'agents', 'bookings'],
  personalData: [scrubbed('tv_push_log', 'booking', [{ name: 'detail' }])],
  create: ({ db, config }, deps: TvDependencies) => {
    deps.bookings.followStays(tvStayFollower);
    return createTvService(db, config, deps);
  },
  routes: (tv) => tvRoutes(tv),
  activities: (tv, _context, { agents }) => tvActivities(tv, agents),
  onHotelCreated: (_tv, trx, hotelId) => settingsRepository.insertDefaults(trx, hotelId),
});
