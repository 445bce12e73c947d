import { agentsFixtures } from './agents.fixtures';
import { defineModule } from '../../platform/modules';
import { agentActivities } from './agents.activities';
import { workstationOffline, workstationOnline } from './agents.events';
import { createAgentHub } from './agents.hub';
import { agentsRoutes } from './agents.routes';
import { createAgentsService, type AgentsDependencies } from './agents.service';
import { agentsEnv } from './agents.env';
import { scrubbed } from '../../platform/personal-data';

/** Workstations of the hotel's desks, the devices attached to them, and the pairing of their agents. */
export const agentsModule = defineModule({
  name: 'agents',
  fixtures: agentsFixtures,
  uses: ['hotels'],
  config: agentsEnv,
  personalData: [
    scrubbed('agent_commands', 'hotel', [
      { name: 'payload', json: true },
      { name: 'result', json: true },
      { name: 'error', json: true },
    ]),
  ],
  create: ({ db, listener, config }, deps: AgentsDependencies) =>
    createAgentsService(db, listener, config.agentRelease, deps),
  events: [workstationOnline, workstationOffline],
  routes: (agents) => agentsRoutes(agents),
  activities: agentActivities,
  sockets: (agents, { listener, logger, timings }) => [createAgentHub({ agents, listener, logger, ...timings })],
});
