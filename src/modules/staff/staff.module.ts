import { defineModule } from '../../platform/modules';
import { sendingOnce } from '../../platform/temporal/mail-failures';
import type { StaffActivities } from '../../../workflows/contracts/accounts';
import type { AuthService } from '../auth';
import { createStaffInvitations } from './staff.invitations';
import { staffRoutes } from './staff.routes';
import { createStaffService } from './staff.service';

export const staffModule = defineModule({
  name: 'staff',
  uses: ['auth'],
  create: ({ db, config }, deps: { auth: Pick<AuthService, 'endAllSessions'> }) => createStaffService(db, config, deps),
  routes: (staff) => staffRoutes(staff),
  activities(_staff, { db, config, mailer }): StaffActivities {
    const invitations = createStaffInvitations(db, config, mailer);
    return {
      sendInvitationEmail: (userId) => sendingOnce(() => invitations.sendInvitationEmail(userId)),
      expireInvitation: (userId) => invitations.expireInvitation(userId),
    };
  },
});
