export { createStaffService, type StaffService } from './staff.service';
export { createStaffInvitations, type StaffInvitations } from './staff.invitations';
export { staffRoutes } from './staff.routes';
