import { condition, proxyActivities, setHandler } from '@temporalio/workflow';
import { invitationAcceptedSignal, type StaffActivities, type StaffInvitationInput } from './contracts/accounts';

const { sendInvitationEmail, expireInvitation } = proxyActivities<StaffActivities>({
  // Short: an attempt lost with a crashed worker is retried after this, not a minute later.
  startToCloseTimeout: '20 seconds',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '10 minutes' },
});

/** Sends the invitation, then waits for acceptance; an invitation nobody accepted is recorded as expired. */
export async function staffInvitation(input: StaffInvitationInput): Promise<'accepted' | 'expired'> {
  let accepted = false;
  setHandler(invitationAcceptedSignal, () => {
    accepted = true;
  });
  try {
    await sendInvitationEmail(input.userId);
  } catch {
    // The address refused the message for good; the invitation still expires on time (and shows as expired).
  }
  if (await condition(() => accepted, input.expiresInMs)) return 'accepted';
  await expireInvitation(input.userId);
  return 'expired';
}
