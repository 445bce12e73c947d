export * from './account-email.workflow';
export * from './staff-invitation.workflow';
export * from './maintenance-sweep.workflow';
