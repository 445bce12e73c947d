import { defineModule } from '../../platform/modules';
import { createWorkflowQueries } from '../../platform/temporal/workflow-queries';
import type { TimelineDependencies } from './timeline.dependencies';
import { timelineEnv } from './timeline.env';
import { timelineRoutes } from './timeline.routes';
import { createTimelineService } from './timeline.service';

/** A booking's timeline: what happened to the stay, read from the modules that keep it, and what is still to come. */
export const timelineModule = defineModule({
  name: 'timeline',
  uses: [
    'audit',
    'bookings',
    'payments',
    'billing',
    'deposits',
    'fiscal',
    'cards',
    'tv',
    'roomservice',
    'notifications',
    'reviews',
    'loyalty',
    'folios',
    'invoices',
    'users',
  ],
  config: timelineEnv,
  create: ({ config }, deps: TimelineDependencies) => {
    const queries = createWorkflowQueries(config.timelineTemporal);
    return { ...createTimelineService(deps, queries), close: queries.close };
  },
  routes: (timeline) => timelineRoutes(timeline),
  // Its own Temporal client (for queries): closed at the API's shutdown.
  close: (timeline) => timeline.close(),
});
