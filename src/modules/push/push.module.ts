import { pushFixtures } from './push.fixtures';
import { PUSH_REFUSED } from '../../../workflows/contracts/push';
import { defineModule } from '../../platform/modules';
import { pushActivities } from './push.activities';
import { pushChannel } from './push.channel';
import { pushRoutes } from './push.routes';
import { createPushService, type PushDependencies } from './push.service';
import { pushEnv } from './push.env';

/**
 * Web Push: the staff's browser subscriptions, and the push of every notification to its recipients' devices (the
 * notifications module tells its channel of each notification made; the channel starts `pushDelivery`).
 */
export const pushModule = defineModule({
  name: 'push',
  fixtures: pushFixtures,
  uses: ['notifications'],
  config: pushEnv,
  create: ({ db, config }, deps: PushDependencies) => {
    deps.notifications.deliverAlso(pushChannel);
    return createPushService(db, config, deps);
  },
  routes: (push) => pushRoutes(push),
  activities: pushActivities,
  refusals: { type: PUSH_REFUSED },
});
