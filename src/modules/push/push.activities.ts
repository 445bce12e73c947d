import { ApplicationFailure } from '@temporalio/common';
import { ValidationError } from '../../platform/errors';
import { PUSH_RATE_LIMITED, PUSH_REFUSED, type PushActivities } from '../../../workflows/contracts/push';
import { pushMessages } from './push.messages';
import type { PushService } from './push.service';

/** The push delivery's activities: the failures carry words and a status only, never the payload. */
export function pushActivities(push: PushService): PushActivities {
  return {
    pushTargets: ({ hotelId, notificationId }) => push.targets(hotelId, notificationId),

    async sendPush({ hotelId, notificationId, subscriptionId }) {
      let result;
      try {
        result = await push.sendOne(hotelId, notificationId, subscriptionId);
      } catch (error) {
        // The endpoint is (now) an address this service may not call: the same next time.
        if (error instanceof ValidationError) throw ApplicationFailure.nonRetryable(error.message, PUSH_REFUSED);
        throw error;
      }
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
