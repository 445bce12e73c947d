import { ApplicationFailure, CompleteAsyncError, Context } from '@temporalio/activity';
import {
  AGENT_COMMAND_REFUSED,
  AGENT_UNREACHABLE,
  type AgentActivities,
  type AgentCommandRequest,
  type AgentCommandResult,
} from '../../../workflows/contracts/agents';
import { agentErrorText, agentMessages } from './agents.messages';
import type { AgentsService } from './agents.service';

/**
 * The durable agent command, run from the activity calling it: recorded under its business key, then completed
 * asynchronously when the agent's reply comes (the reply completes this attempt by its task token, through the outbox).
 * An attempt that finds the command already answered returns that answer: a retry never sends the agent a second
 * command. Other modules' activities call it with a command they build themselves, so what it carries (a receipt's
 * customer contact) never enters the workflow's history.
 */
export async function awaitAgentReply(
  agents: Pick<AgentsService, 'commands'>,
  request: AgentCommandRequest,
): Promise<AgentCommandResult> {
  const { taskToken, workflowExecution } = Context.current().info;
  // The reply completes the activity through the outbox, which orders messages by workflow.
  if (!workflowExecution) throw ApplicationFailure.nonRetryable('an agent command runs within a workflow only');
  const submission = await agents.commands.submitDurable(request, {
    taskToken: Buffer.from(taskToken).toString('base64'),
    workflowId: workflowExecution.workflowId,
  });
  if (!submission) throw ApplicationFailure.nonRetryable(agentMessages.workstationNotFound, AGENT_UNREACHABLE);
  if (!submission.settled) throw new CompleteAsyncError();
  const { outcome } = submission;
  if (outcome.ok) return outcome.result;
  throw ApplicationFailure.nonRetryable(agentErrorText(outcome.error), AGENT_COMMAND_REFUSED, outcome.error);
}

export function agentActivities(agents: AgentsService): AgentActivities {
  return { runAgentCommand: (request) => awaitAgentReply(agents, request) };
}
