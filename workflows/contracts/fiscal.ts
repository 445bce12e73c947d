/**
 * The fiscal receipt workflow's contract (`fiscalReceipt:<receiptId>`): it reads the pending receipt's command, runs it
 * on the desk with the agents' durable `runAgentCommand`, and records what the register answered. The fiscal module
 * implements these activities; the workflow and the module import this file, neither the other.
 */

/** The failure type of an activity whose receipt, workstation or register is gone: retrying will not help. */
export const FISCAL_RECEIPT_UNAVAILABLE = 'FiscalReceiptUnavailable';

export type FiscalReceiptStatus = 'pending' | 'printed' | 'failed';

export interface FiscalReceiptRef {
  hotelId: string;
  receiptId: string;
}

/**
 * The `fiscal_receipt` command for the receipt's desk, shaped as `runAgentCommand`'s request without its deadline.
 * `key` is the receipt's: every attempt is the same command, which the agent executes (prints) at most once.
 */
export interface FiscalReceiptAgentCommand {
  hotelId: string;
  workstationId: string;
  key: string;
  type: 'fiscal_receipt';
  /** `{ device: { id, type, connection, com_port, fiscal_mode, dto_port, config }, task: <ATOL JSON task> }` */
  payload: Record<string, unknown>;
}

export interface FiscalReceiptWork {
  /** Not `pending`: the receipt was already settled (a replayed or repeated workflow) and nothing is to be sent. */
  status: FiscalReceiptStatus;
  command: FiscalReceiptAgentCommand;
}

export interface FiscalActivities {
  /**
   * The receipt's command. Fails non-retryable (`FISCAL_RECEIPT_UNAVAILABLE`, staff's words as the message) when the
   * receipt, or the register it is printed on, is gone: the workflow then marks it failed (`device_not_found`).
   */
  fiscalReceiptTask(input: FiscalReceiptRef): Promise<FiscalReceiptWork>;
  /**
   * The agent's result (`{ fiscal: {...} }`) stored as the receipt's fiscal attributes. An answer without complete
   * attributes leaves the receipt `failed` (code `invalid_answer`); a receipt already printed stays as it was.
   */
  markFiscalReceiptPrinted(input: FiscalReceiptRef & { result: unknown }): Promise<FiscalReceiptStatus>;
  /**
   * The receipt was not printed. `code`: the agent's refusal code (`fiscal_refused`, `shift_expired`,
   * `device_not_found`, `device_busy`, `unsupported_command`, `timeout`), `agent_unreachable` (the workstation is gone),
   * `deadline_exceeded` (the desk stayed offline past the command's deadline); `message` the register's or agent's
   * words. Stored with words for staff; a printed receipt is never marked failed.
   */
  markFiscalReceiptFailed(
    input: FiscalReceiptRef & { error: { code: string; message: string } },
  ): Promise<FiscalReceiptStatus>;
}

export const fiscalWorkflowIds = {
  fiscalReceipt: (receiptId: string) => `fiscalReceipt:${receiptId}`,
};
