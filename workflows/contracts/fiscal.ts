/**
 * The fiscal receipt workflow's contract (`fiscalReceipt:<receiptId>`): it has the pending receipt printed at its desk
 * by a durable agent command, and records what the register answered. The fiscal module
 * implements these activities; the workflow and the module import this file, neither the other.
 */

/** The failure type of an activity whose receipt, workstation or register is gone: retrying will not help. */
export const FISCAL_RECEIPT_UNAVAILABLE = 'FiscalReceiptUnavailable';

export type FiscalReceiptStatus = 'pending' | 'printed' | 'failed';

export interface FiscalReceiptRef {
  hotelId: string;
  receiptId: string;
}

export interface FiscalActivities {
  /**
   * Where the receipt stands: not `pending` when it was already settled (a repeated workflow) and nothing is to be
   * sent. Fails non-retryable (`FISCAL_RECEIPT_UNAVAILABLE`, staff's words as the message) when the receipt is gone.
   */
  fiscalReceiptStatus(input: FiscalReceiptRef): Promise<FiscalReceiptStatus>;
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

export interface FiscalReceiptInput extends FiscalReceiptRef {
  /** How long the receipt may wait for its desk (offline for a while) before it is reported not printed. */
  deadlineMs: number;
}

/**
 * The printing itself, a durable agent command (`fiscal_receipt`, keyed by the receipt: printed at most once) built
 * and sent by the fiscal module, so the receipt's task (the customer's contact in it) never enters the history. It
 * answers the agent's result (`{ fiscal: {...} }`); an agent's refusal fails it as `AGENT_COMMAND_REFUSED`, a register
 * that is gone as `FISCAL_RECEIPT_UNAVAILABLE`.
 */
export interface FiscalPrintActivities {
  printFiscalReceipt(input: FiscalReceiptInput): Promise<Record<string, unknown>>;
}

export type FiscalReceiptWorkflow = (input: FiscalReceiptInput) => Promise<FiscalReceiptStatus>;

export const fiscalWorkflowIds = {
  fiscalReceipt: (receiptId: string) => `fiscalReceipt:${receiptId}`,
};
