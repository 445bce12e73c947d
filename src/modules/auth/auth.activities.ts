import type { AccountActivities } from '../../../workflows/contracts/accounts';
import type { WorkerContext } from '../../platform/modules';
import type { AuthSettings } from './auth.env';
import { sendingClaimed, workflowRunKey } from '../../platform/temporal/mail-failures';
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
    sendAccountEmail: (purpose, userId) =>
      sendingClaimed(() => emails.sendAccountEmail(purpose, userId, workflowRunKey()), {
        type: 'AccountEmailBusy',
        message: `the ${purpose} e-mail is being sent`,
      }),
  };
}
