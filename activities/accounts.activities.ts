import type { AccountEmails } from '../src/modules/auth';
import type { StaffInvitations } from '../src/modules/staff';
import type { AccountEmailPurpose } from '../workflows/messages';

export function createAccountActivities(accountEmails: AccountEmails, invitations: StaffInvitations) {
  return {
    async sendAccountEmail(purpose: AccountEmailPurpose, userId: string): Promise<string> {
      return accountEmails.sendAccountEmail(purpose, userId);
    },
    async sendInvitationEmail(userId: string): Promise<string> {
      return invitations.sendInvitationEmail(userId);
    },
    async expireInvitation(userId: string): Promise<boolean> {
      return invitations.expireInvitation(userId);
    },
  };
}

export type AccountActivities = ReturnType<typeof createAccountActivities>;
