import { ApplicationFailure } from '@temporalio/activity';
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
