export * from './account-email.workflow';
export * from './staff-invitation.workflow';
export * from './maintenance-sweep.workflow';
export * from './booking.workflow';
export * from './booking-sweeps.workflow';
export * from './account-request.workflow';
export * from './deposit.workflow';
export * from './booking-payment.workflow';
