export * from './account-email.workflow';
export * from './staff-invitation.workflow';
