import { defineSignal } from '@temporalio/workflow';

/** Workflow ids are built from business ids only: no personal data reaches Temporal's visibility store. */
export const workflowIds = {
  accountEmail: (purpose: AccountEmailPurpose, userId: string, sequence: number | string) =>
    `email:${purpose}:${userId}:${sequence}`,
  accountRequest: (requestId: string) => `account-request:${requestId}`,
  staffInvitation: (userId: string) => `invitation:${userId}`,
  booking: (bookingId: string) => `booking:${bookingId}`,
};

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

export const invitationAcceptedSignal = defineSignal('accepted');

export type BookingLifecycleStatus = 'inquiry' | 'confirmed' | 'checked_in' | 'checked_out' | 'cancelled';

export interface BookingWorkflowInput {
  hotelId: string;
  bookingId: string;
  status: BookingLifecycleStatus;
}

/** Why a booking changed status: by staff, or by one of the background jobs. */
export interface BookingStatusChange {
  status: BookingLifecycleStatus;
  reason: 'manual' | 'no_show' | 'auto_checkout';
}

export const bookingStatusSignal = defineSignal<[BookingStatusChange]>('statusChanged');

export type BookingAnnouncement = { event: 'created' } | ({ event: 'status' } & BookingStatusChange);
