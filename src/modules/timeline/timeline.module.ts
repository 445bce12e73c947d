import { defineModule } from '../../platform/modules';
import type { TimelineDependencies } from './timeline.dependencies';
import { timelineRoutes } from './timeline.routes';
import { createTimelineService } from './timeline.service';
import { WorkflowsUnavailable } from '../../platform/temporal/workflow-queries';

/** Where the API process does not query workflows (the worker): what is still to come is left out, saying so. */
const NO_WORKFLOWS = {
  ask: () => Promise.reject(new WorkflowsUnavailable('this process does not query workflows')),
};

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
    'rooms',
    'hotels',
  ],
  // The API process's queries of running workflows, over its one Temporal connection.
  create: ({ workflows }, deps: TimelineDependencies) => createTimelineService(deps, workflows ?? NO_WORKFLOWS),
  routes: (timeline) => timelineRoutes(timeline),
});
