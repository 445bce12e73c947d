import { ApplicationFailure, Context } from '@temporalio/activity';
import { PermanentMailError } from '../mail';

/** A refused address will be refused again: no retries for it, the failure shows in the workflow instead. */
export async function sendingOnce<T>(send: () => Promise<T>): Promise<T> {
  try {
    return await send();
  } catch (error) {
    if (error instanceof PermanentMailError) throw ApplicationFailure.nonRetryable(error.message, 'PermanentMailError');
    throw error;
  }
}

/**
 * An e-mail sent at most once under a claim: `busy` means another attempt took it on and may still be talking to the
 * relay, so this attempt fails, to look again on its retry (by then it is sent, or its fate is in doubt).
 */
export async function sendingClaimed<Outcome extends string>(
  send: () => Promise<Outcome | 'busy'>,
  busy: { type: string; message: string },
): Promise<Outcome> {
  const outcome = await sendingOnce(send);
  if (outcome === 'busy') throw ApplicationFailure.retryable(busy.message, busy.type);
  return outcome as Outcome;
}

/** The key an e-mail of this workflow run is claimed under: the same for every attempt of the activity. */
export function workflowRunKey(): string {
  const execution = Context.current().info.workflowExecution;
  if (!execution) throw ApplicationFailure.nonRetryable('an e-mail is claimed within its workflow only');
  return `${execution.workflowId}:${execution.runId}`;
}
