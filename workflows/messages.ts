import { defineSignal } from '@temporalio/workflow';

/** Workflow ids are built from business ids only: no personal data reaches Temporal's visibility store. */
export const workflowIds = {
  accountEmail: (purpose: AccountEmailPurpose, userId: string, sequence: number | string) =>
    `email:${purpose}:${userId}:${sequence}`,
  staffInvitation: (userId: string) => `invitation:${userId}`,
};

export type AccountEmailPurpose = 'confirmation' | 'reset';

export interface AccountEmailInput {
  purpose: AccountEmailPurpose;
  userId: string;
}

export interface StaffInvitationInput {
  userId: string;
  /** How long the invitation stays valid; tests pass seconds. */
  expiresInMs: number;
}

export const invitationAcceptedSignal = defineSignal('accepted');
