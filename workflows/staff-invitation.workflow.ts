import { condition, proxyActivities, setHandler } from '@temporalio/workflow';
import type { AccountActivities } from '../activities/accounts.activities';
import { invitationAcceptedSignal, type StaffInvitationInput } from './messages';

const { sendInvitationEmail, expireInvitation } = proxyActivities<AccountActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '10 minutes' },
});

/** Sends the invitation, then waits for acceptance; an invitation nobody accepted is recorded as expired. */
export async function staffInvitation(input: StaffInvitationInput): Promise<'accepted' | 'expired'> {
  let accepted = false;
  setHandler(invitationAcceptedSignal, () => {
    accepted = true;
  });
  await sendInvitationEmail(input.userId);
  if (await condition(() => accepted, input.expiresInMs)) return 'accepted';
  await expireInvitation(input.userId);
  return 'expired';
}
