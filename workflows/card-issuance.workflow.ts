import { ActivityFailure, ApplicationFailure, proxyActivities } from '@temporalio/workflow';
import { agentCommandOptions, type AgentActivities, type AgentRefusal } from './contracts/agents';
import type { CardIssuanceActivities, CardIssuanceInput, CardIssuanceOutcome } from './contracts/cards';

const records = proxyActivities<CardIssuanceActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 10 },
});

const DESK_SILENT: AgentRefusal = { code: 'desk_unreachable', message: '' };

const isRefusal = (detail: unknown): detail is AgentRefusal =>
  typeof detail === 'object' && detail !== null && typeof (detail as AgentRefusal).code === 'string';

/**
 * Why the card was not written, as the issuance records it: the refusal's code (the agent's or the lock cloud's,
 * carried in the failure's details) with the failure's words for staff, or else the desk's silence until the deadline.
 */
function refusalOf(error: unknown): AgentRefusal {
  const cause = error instanceof ActivityFailure ? error.cause : error;
  const [detail] = cause instanceof ApplicationFailure ? ((cause.details ?? []) as unknown[]) : [];
  return isRefusal(detail) ? { code: detail.code, message: (cause as ApplicationFailure).message } : DESK_SILENT;
}

/**
 * One door-lock card (`card:<issuanceId>`): the lock cloud's hotel info is fetched, the desk's agent writes the card
 * (a durable command: the agent writes it at most once, even when this workflow's worker dies meanwhile), and the
 * card number or the reason it was not written is recorded.
 */
export async function cardIssuance({
  hotelId,
  issuanceId,
  writeDeadlineMs,
}: CardIssuanceInput): Promise<CardIssuanceOutcome> {
  const desk = proxyActivities<AgentActivities>(agentCommandOptions(writeDeadlineMs));
  let cardNumber: string;
  try {
    const command = await records.prepareCardWrite(hotelId, issuanceId);
    if (!command) return 'failed';
    const result = await desk.runAgentCommand({
      hotelId,
      workstationId: command.workstationId,
      key: `card:${issuanceId}:write`,
      type: 'write_card',
      payload: command.payload,
      deadlineMs: writeDeadlineMs,
    });
    cardNumber = String(result.card_number);
  } catch (error) {
    await records.recordCardFailed(hotelId, issuanceId, refusalOf(error));
    return 'failed';
  }
  await records.recordCardWritten(hotelId, issuanceId, cardNumber);
  return 'written';
}
