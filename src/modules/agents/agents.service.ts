import type { PublishedRelease } from './agents.env';
import type { Db } from '../../platform/db/knex';
import type { PgListener } from '../../platform/db/pg-listener';
import { createAgentCommands } from './agents.commands';
import { commandsRepository } from './agents.commands.repository';
import { createDeskCommands } from './agents.desk';
import type { HotelsService } from '../hotels';
import { createAgentChannel } from './agents.channel';
import { createDevices } from './agents.devices';
import { LATEST_AGENT_RELEASE, type AgentRelease } from './agents.release';
import { createWorkstations } from './agents.workstations';

export interface AgentsDependencies {
  hotels: Pick<HotelsService, 'find'>;
}

export function createAgentsService(
  db: Db,
  listener: PgListener | undefined,
  published: PublishedRelease | undefined,
  deps: AgentsDependencies,
) {
  const commands = createAgentCommands(db, listener);
  const release: AgentRelease = published ? { ...published, notes: '', published_at: null } : LATEST_AGENT_RELEASE;
  const latestRelease = () => release;
  return {
    commands,
    desk: createDeskCommands(db, commands, latestRelease),
    workstations: createWorkstations(db),
    devices: createDevices(db),
    ...createAgentChannel(db, deps.hotels),
    latestRelease,

    /** Finished commands older than a week (the agents' de-duplication window): the maintenance sweep's. */
    purgeFinishedCommands: () => commandsRepository.purgeFinished(db),
  };
}

export type AgentsService = ReturnType<typeof createAgentsService>;
