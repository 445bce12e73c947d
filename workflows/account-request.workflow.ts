import { proxyActivities } from '@temporalio/workflow';
import type { AccountActivities, AccountRequestInput } from './contracts/accounts';

const { handleAccountRequest } = proxyActivities<AccountActivities>({
  startToCloseTimeout: '20 seconds',
  scheduleToCloseTimeout: '1 day',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '10 minutes' },
});

/**
 * A resend-confirmation or forgot-password request, handled off the request path so that the answer takes the same
 * time whether or not the address has an account; an account that qualifies gets its e-mail (accountEmail workflow).
 */
export async function accountRequest(input: AccountRequestInput): Promise<string> {
  return handleAccountRequest(input.requestId);
}
