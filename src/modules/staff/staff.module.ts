import { staffFixtures } from './staff.fixtures';
import { defineModule } from '../../platform/modules';
import { sendingOnce } from '../../platform/temporal/mail-failures';
import type { StaffActivities } from '../../../workflows/contracts/accounts';
import type { HotelsService } from '../hotels';
import { createStaffInvitations } from './staff.invitations';
import { staffRoutes } from './staff.routes';
import { createStaffService, type StaffDependencies } from './staff.service';
import { staffEnv } from './staff.env';

export const staffModule = defineModule({
  name: 'staff',
  fixtures: staffFixtures,
  uses: ['auth', 'users', 'hotels'],
  config: staffEnv,
  create: ({ db, config }, deps: StaffDependencies & { hotels: Pick<HotelsService, 'find'> }) =>
    createStaffService(db, config, deps),
  routes: (staff) => staffRoutes(staff),
  activities(_staff, { config, mailer }, deps): StaffActivities {
    const invitations = createStaffInvitations(config, mailer, deps);
    return {
      sendInvitationEmail: (userId) => sendingOnce(() => invitations.sendInvitationEmail(userId)),
      expireInvitation: (userId) => invitations.expireInvitation(userId),
    };
  },
});
