import { defineModule } from '../../platform/modules';
import { workstationOffline, workstationOnline } from './agents.events';
import { agentsRoutes } from './agents.routes';
import { createAgentsService, type AgentsDependencies } from './agents.service';

/** Workstations of the hotel's desks, the devices attached to them, and the pairing of their agents. */
export const agentsModule = defineModule({
  name: 'agents',
  uses: ['hotels'],
  create: ({ db }, deps: AgentsDependencies) => createAgentsService(db, deps),
  events: [workstationOnline, workstationOffline],
  routes: (agents) => agentsRoutes(agents),
});
