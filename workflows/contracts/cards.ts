import type { AgentRefusal } from './agents';

/**
 * Door-lock cards (`card:<issuanceId>`): the cards module records an issuance and starts the workflow, which has the
 * desk's agent write the card and records what came of it.
 */

export interface CardIssuanceInput {
  hotelId: string;
  issuanceId: string;
  /** How long the desk may take to write the card (the guest is waiting; the cloud's hotelInfo lives 10 minutes). */
  writeDeadlineMs: number;
}

/** The agent command that writes this issuance's card, with the lock cloud's hotel info fetched just now. */
export interface CardWriteCommand {
  workstationId: string;
  payload: Record<string, unknown>;
}

/**
 * A refusal of the cards module's activities (no encoder port, a room without a lock, the lock cloud's), as a
 * non-retryable failure of this type carrying its `{ code, message }` (an AgentRefusal), recorded as it is.
 */
export const CARD_ISSUANCE_REFUSED = 'CardIssuanceRefused';

export type CardIssuanceOutcome = 'written' | 'failed';

export interface CardIssuanceActivities {
  /** Undefined when the issuance is no longer pending (a redelivered start): nothing to write. */
  prepareCardWrite(hotelId: string, issuanceId: string): Promise<CardWriteCommand | undefined>;
  recordCardWritten(hotelId: string, issuanceId: string, cardNumber: string): Promise<void>;
  recordCardFailed(hotelId: string, issuanceId: string, refusal: AgentRefusal): Promise<void>;
}

export type CardIssuanceWorkflow = (input: CardIssuanceInput) => Promise<CardIssuanceOutcome>;
