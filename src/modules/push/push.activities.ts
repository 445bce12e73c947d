import { ApplicationFailure } from '@temporalio/activity';
import { PUSH_RATE_LIMITED, PUSH_REFUSED, type PushActivities } from '../../../workflows/contracts/push';
import { pushMessages } from './push.messages';
import type { PushService } from './push.service';

/**
 * The push delivery's activities: the failures carry words and a status only, never the payload. An endpoint that is
 * (now) an address this service may not call is refused (`PUSH_REFUSED`, the module's): the same next time.
 */
export function pushActivities(push: PushService): PushActivities {
  return {
    pushTargets: ({ hotelId, notificationId }) => push.targets(hotelId, notificationId),

    async sendPush({ hotelId, notificationId, subscriptionId }) {
      const result = await push.sendOne(hotelId, notificationId, subscriptionId);
      switch (result.kind) {
        case 'sent':
        case 'gone':
        case 'skipped':
          return result.kind;
        case 'rateLimited':
          throw ApplicationFailure.create({
            message: pushMessages.rateLimited(Math.round(result.retryAfterMs / 1000)),
            type: PUSH_RATE_LIMITED,
            nextRetryDelay: result.retryAfterMs,
          });
        case 'refused':
          throw ApplicationFailure.nonRetryable(pushMessages.refused(result.status), PUSH_REFUSED);
        case 'failed':
          throw ApplicationFailure.retryable(pushMessages.failed(result.detail), 'PushFailed');
      }
    },
  };
}
