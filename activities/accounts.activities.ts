import { ApplicationFailure } from '@temporalio/activity';
import type { AccountEmails, AuthService } from '../src/modules/auth';
import type { StaffInvitations } from '../src/modules/staff';
import { PermanentMailError } from '../src/platform/mail';
import type { AccountEmailPurpose } from '../workflows/messages';

/** A refused address will be refused again: no retries for it, the failure shows in the workflow instead. */
async function sendingOnce<T>(send: () => Promise<T>): Promise<T> {
  try {
    return await send();
  } catch (error) {
    if (error instanceof PermanentMailError) throw ApplicationFailure.nonRetryable(error.message, 'PermanentMailError');
    throw error;
  }
}

export function createAccountActivities(
  auth: Pick<AuthService, 'handleAccountRequest'>,
  accountEmails: AccountEmails,
  invitations: StaffInvitations,
) {
  return {
    async handleAccountRequest(requestId: string): Promise<string> {
      return auth.handleAccountRequest(requestId);
    },
    async sendAccountEmail(purpose: AccountEmailPurpose, userId: string): Promise<string> {
      return sendingOnce(() => accountEmails.sendAccountEmail(purpose, userId));
    },
    async sendInvitationEmail(userId: string): Promise<string> {
      return sendingOnce(() => invitations.sendInvitationEmail(userId));
    },
    async expireInvitation(userId: string): Promise<boolean> {
      return invitations.expireInvitation(userId);
    },
  };
}

export type AccountActivities = ReturnType<typeof createAccountActivities>;
