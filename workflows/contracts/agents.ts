import type { ActivityOptions } from '@temporalio/workflow';

/**
 * The durable agent command, for workflows that need a desk to act (write a card, print a fiscal receipt, call the TV
 * system through the desk). The agents module implements the activity: it records the command and completes when the
 * agent replies, by the attempt's task token, however long the desk was offline (until `deadlineMs`).
 */

export interface AgentCommandRequest {
  hotelId: string;
  workstationId: string;
  /**
   * The business operation (e.g. `card:<issuanceId>:write`): every attempt of it is the same command, with the same
   * id, which the agent executes at most once.
   */
  key: string;
  type: string;
  payload: Record<string, unknown>;
  /** How long the command may wait for the desk, from its first attempt; then it is given up. */
  deadlineMs: number;
}

/** What the agent answered to a command it executed successfully. */
export type AgentCommandResult = Record<string, unknown>;

/** The agent's refusal, carried as a non-retryable failure of this type (its details: `{ code, message }`). */
export const AGENT_COMMAND_REFUSED = 'AgentCommandRefused';
/** The workstation was deleted or unpaired: no agent will ever take the command. */
export const AGENT_UNREACHABLE = 'AgentUnreachable';

export interface AgentRefusal {
  code: string;
  message: string;
}

export interface AgentActivities {
  runAgentCommand(request: AgentCommandRequest): Promise<AgentCommandResult>;
}

/**
 * How workflows call runAgentCommand: an attempt waits up to 10 minutes for the reply (a desk that reconnects gets the
 * command at once), then the next attempt re-registers the same command; the deadline is the command's own.
 */
export function agentCommandOptions(deadlineMs: number): ActivityOptions {
  return {
    startToCloseTimeout: Math.min(deadlineMs, 10 * 60_000),
    scheduleToCloseTimeout: deadlineMs,
    retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
  };
}

/**
 * Activities that wait for a desk's reply (completed asynchronously, however long the desk stays offline): a workflow
 * whose only pending activities are these is waiting on the outside world, not working.
 */
export const DESK_WAIT_ACTIVITIES: readonly string[] = ['runAgentCommand', 'printFiscalReceipt'];
