import { proxyActivities } from '@temporalio/workflow';
import { refusalOf } from './agent-refusal';
import { agentCommandOptions, type AgentActivities } from './contracts/agents';
import type { CardIssuanceActivities, CardIssuanceInput, CardIssuanceOutcome } from './contracts/cards';

const records = proxyActivities<CardIssuanceActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 10 },
});

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
