import { proxyActivities } from '@temporalio/workflow';
import {
  PUSH_PARALLEL_SENDS,
  PUSH_SEND_OPTIONS,
  PUSH_TARGETS_OPTIONS,
  type PushActivities,
  type PushDeliveryInput,
  type PushDeliveryResult,
} from './contracts/push';

const targets = proxyActivities<Pick<PushActivities, 'pushTargets'>>(PUSH_TARGETS_OPTIONS);
const sender = proxyActivities<Pick<PushActivities, 'sendPush'>>(PUSH_SEND_OPTIONS);

/**
 * The Web Push of one notification (`pushDelivery:<notificationId>`): every subscription of its recipients (named in
 * its input; a delivery started before that looks them up) gets one
 * push, each retried on its own (a 429 after its Retry-After), PUSH_PARALLEL_SENDS at a time. A subscription that
 * fails for good is counted and never holds up the others.
 */
export async function pushDelivery(input: PushDeliveryInput): Promise<PushDeliveryResult> {
  const subscriptionIds = input.subscriptionIds ?? (await targets.pushTargets(input));
  const result: PushDeliveryResult = { sent: 0, gone: 0, failed: 0 };
  for (let start = 0; start < subscriptionIds.length; start += PUSH_PARALLEL_SENDS) {
    const batch = subscriptionIds.slice(start, start + PUSH_PARALLEL_SENDS);
    const outcomes = await Promise.allSettled(
      batch.map((subscriptionId) =>
        sender.sendPush({ hotelId: input.hotelId, notificationId: input.notificationId, subscriptionId }),
      ),
    );
    for (const outcome of outcomes) {
      if (outcome.status === 'rejected') result.failed += 1;
      else if (outcome.value === 'sent') result.sent += 1;
      else if (outcome.value === 'gone') result.gone += 1;
    }
  }
  return result;
}
