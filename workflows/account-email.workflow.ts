import { proxyActivities } from '@temporalio/workflow';
import type { AccountActivities, AccountEmailInput } from './contracts/accounts';

const { sendAccountEmail } = proxyActivities<AccountActivities>({
  // Short: an attempt lost with a crashed worker is retried after this, not a minute later.
  startToCloseTimeout: '20 seconds',
  // A relay that is down for a while must not lose a confirmation or reset e-mail.
  scheduleToCloseTimeout: '1 day',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '10 minutes' },
});

/** Sends a confirmation or password-reset e-mail with retries; the request that caused it has already succeeded. */
export async function accountEmail(input: AccountEmailInput): Promise<void> {
  await sendAccountEmail(input.purpose, input.userId);
}
