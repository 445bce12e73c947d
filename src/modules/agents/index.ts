export type { AgentsService } from './agents.service';
export type { AgentIdentity, Workstation, WorkstationDevice } from './agents.types';
export { awaitAgentReply } from './agents.activities';
export { dllInfoResult } from './agents.desk-schemas';
