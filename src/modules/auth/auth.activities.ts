import { ApplicationFailure, Context } from '@temporalio/activity';
import type { AccountActivities } from '../../../workflows/contracts/accounts';
import type { WorkerContext } from '../../platform/modules';
import type { AuthSettings } from './auth.env';
import { sendingOnce } from '../../platform/temporal/mail-failures';
import { createAccountEmails } from './auth.emails';
import type { AuthService } from './auth.service';

/** The account workflows' activities: a resend or reset request handled, its e-mail sent (a refused address once). */
export function authActivities(
  auth: AuthService,
  { db, config, mailer }: WorkerContext<AuthSettings>,
  deps: Parameters<typeof createAccountEmails>[3],
): AccountActivities {
  const emails = createAccountEmails(db, config, mailer, deps);
  return {
    handleAccountRequest: (requestId) => auth.handleAccountRequest(requestId),
    async sendAccountEmail(purpose, userId) {
      const workflowId = Context.current().info.workflowExecution?.workflowId;
      if (!workflowId) throw ApplicationFailure.nonRetryable('an account e-mail is sent within its workflow only');
      const outcome = await sendingOnce(() => emails.sendAccountEmail(purpose, userId, workflowId));
      // Another attempt holds the e-mail and may still be talking to the relay: look again on a retry.
      if (outcome === 'busy')
        throw ApplicationFailure.retryable(`the ${purpose} e-mail is being sent`, 'AccountEmailBusy');
      return outcome;
    },
  };
}
