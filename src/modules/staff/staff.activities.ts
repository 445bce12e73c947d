import type { StaffActivities } from '../../../workflows/contracts/accounts';
import type { WorkerContext } from '../../platform/modules';
import type { StaffSettings } from './staff.env';
import { sendingOnce } from '../../platform/temporal/mail-failures';
import { createStaffInvitations } from './staff.invitations';
import type { StaffDependencies, StaffService } from './staff.service';

/** The staff invitation workflow's activities: the invitation e-mail (a refused address once), and its expiry. */
export function staffActivities(
  _staff: StaffService,
  { config, mailer }: WorkerContext<StaffSettings>,
  deps: StaffDependencies & Parameters<typeof createStaffInvitations>[2],
): StaffActivities {
  const invitations = createStaffInvitations(config, mailer, deps);
  return {
    sendInvitationEmail: (userId) => sendingOnce(() => invitations.sendInvitationEmail(userId)),
    expireInvitation: (userId) => invitations.expireInvitation(userId),
  };
}
