import type { Db } from '../../platform/db/knex';
import type { PgListener } from '../../platform/db/pg-listener';
import { createAgentCommands } from './agents.commands';
import { createDeskCommands } from './agents.desk';
import type { HotelsService } from '../hotels';
import { createAgentChannel } from './agents.channel';
import { createDevices } from './agents.devices';
import { LATEST_AGENT_RELEASE } from './agents.release';
import { createWorkstations } from './agents.workstations';

export interface AgentsDependencies {
  hotels: Pick<HotelsService, 'find'>;
}

export function createAgentsService(db: Db, listener: PgListener | undefined, deps: AgentsDependencies) {
  const commands = createAgentCommands(db, listener);
  const latestRelease = () => LATEST_AGENT_RELEASE;
  return {
    commands,
    desk: createDeskCommands(db, commands, latestRelease),
    workstations: createWorkstations(db),
    devices: createDevices(db),
    ...createAgentChannel(db, deps.hotels),
    latestRelease,
  };
}

export type AgentsService = ReturnType<typeof createAgentsService>;
