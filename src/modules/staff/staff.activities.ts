import type { StaffActivities } from '../../../workflows/contracts/accounts';
import type { WorkerContext } from '../../platform/modules';
import type { StaffSettings } from './staff.env';
import { sendingClaimed, workflowRunKey } from '../../platform/temporal/mail-failures';
import { createStaffInvitations } from './staff.invitations';
import type { StaffDependencies, StaffService } from './staff.service';

/** The staff invitation workflow's activities: the invitation e-mail (at most once; a refused address once), and its expiry. */
export function staffActivities(
  _staff: StaffService,
  { db, config, mailer }: WorkerContext<StaffSettings>,
  deps: StaffDependencies & Parameters<typeof createStaffInvitations>[3],
): StaffActivities {
  const invitations = createStaffInvitations(db, config, mailer, deps);
  return {
    sendInvitationEmail: (userId) =>
      sendingClaimed(() => invitations.sendInvitationEmail(userId, workflowRunKey()), {
        type: 'InvitationEmailBusy',
        message: 'the invitation e-mail is being sent',
      }),
    expireInvitation: (userId) => invitations.expireInvitation(userId),
  };
}
