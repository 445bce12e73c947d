import { defineSignal } from '@temporalio/workflow';

/**
 * The accounts workflows' contract: what the auth and staff modules start and signal, and the activities those
 * modules implement. Both sides import this file; neither imports the other.
 */

export type AccountEmailPurpose = 'confirmation' | 'reset';

export interface AccountEmailInput {
  purpose: AccountEmailPurpose;
  userId: string;
}

export interface AccountRequestInput {
  requestId: string;
}

export interface StaffInvitationInput {
  userId: string;
  /** How long the invitation stays valid; tests pass seconds. */
  expiresInMs: number;
}

/** Workflow ids are built from business ids only: no personal data reaches Temporal's visibility store. */
export const accountWorkflowIds = {
  accountEmail: (purpose: AccountEmailPurpose, userId: string, sequence: number | string) =>
    `email:${purpose}:${userId}:${sequence}`,
  accountRequest: (requestId: string) => `account-request:${requestId}`,
  staffInvitation: (userId: string) => `invitation:${userId}`,
};

export const invitationAcceptedSignal = defineSignal('accepted');

export interface AccountActivities {
  /** Handles a resend-confirmation or forgot-password request: starts the e-mail when the account qualifies. */
  handleAccountRequest(requestId: string): Promise<string>;
  sendAccountEmail(purpose: AccountEmailPurpose, userId: string): Promise<string>;
}

export interface StaffActivities {
  sendInvitationEmail(userId: string): Promise<string>;
  /** Records that nobody accepted the invitation in time; false when there was nothing to expire. */
  expireInvitation(userId: string): Promise<boolean>;
}

export type AccountEmailWorkflow = (input: AccountEmailInput) => Promise<void>;
export type AccountRequestWorkflow = (input: AccountRequestInput) => Promise<string>;
export type StaffInvitationWorkflow = (input: StaffInvitationInput) => Promise<'accepted' | 'expired'>;
