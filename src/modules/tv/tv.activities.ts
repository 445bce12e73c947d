import { ApplicationFailure, Context } from '@temporalio/activity';
import { setTimeout as sleep } from 'node:timers/promises';
import { TV_PUSH_REFUSED, type TvActivities } from '../../../workflows/contracts/tv';
import type { AgentsService } from '../agents';
import { pushDetails } from './tv.messages';
import { outcomeOfDeskResult, WORKER_PUSH_TIMEOUT_MS, type DeskSender } from './tv.push';
import type { TvService } from './tv.service';

/** Growing pauses between looks at the desk's reply, within one attempt. */
const REPLY_CHECKS_MS = [250, 500, 1000, 2000];

/**
 * A push through the desk from the worker (which has no LISTEN connection to wait on): a durable `http_request`
 * command keyed by the attempt, so a retry is a new request to the TV system while a repeated delivery of one attempt
 * is not. It is registered without a task token, so the reply settles the command only, and this attempt reads it:
 * the TV system's answer is interpreted and logged here and never completes the activity by itself (it would put the
 * TV's raw answer in the workflow's history, and a 5xx would count as success). The command expires with the attempt:
 * a desk that comes back later is not sent a stale push.
 */
export function durableDesk(agents: Pick<AgentsService, 'commands'>): DeskSender {
  return async (settings, request, attempt) => {
    const command = {
      hotelId: settings.hotel_id,
      workstationId: settings.agent_workstation_id as string,
      key: `tv:${attempt.bookingId}:${attempt.event}:${attempt.attempt}${attempt.instance ? `:${attempt.instance}` : ''}`,
      type: 'http_request',
      payload: { ...request },
      deadlineMs: WORKER_PUSH_TIMEOUT_MS,
    };
    const until = Date.now() + WORKER_PUSH_TIMEOUT_MS;
    for (let check = 0; ; check += 1) {
      const submission = await agents.commands.submitDurable(command, { taskToken: '', workflowId: '' });
      if (!submission) return { kind: 'refused', status: 0, detail: pushDetails.noWorkstation };
      if (submission.settled) {
        const { outcome } = submission;
        if (outcome.ok) return outcomeOfDeskResult(outcome.result);
        return { kind: 'retryable', status: null, detail: `${outcome.error.code}: ${outcome.error.message}` };
      }
      if (Date.now() >= until) return { kind: 'retryable', status: null, detail: pushDetails.deskSilent };
      await sleep(REPLY_CHECKS_MS[Math.min(check, REPLY_CHECKS_MS.length - 1)]);
    }
  };
}

export function tvActivities(tv: TvService, agents: Pick<AgentsService, 'commands'>): TvActivities {
  const desk = durableDesk(agents);
  return {
    async pushStayToTv({ hotelId, bookingId, event, roomId, moveId }) {
      const { attempt } = Context.current().info;
      // A move's pushes are told apart from the stay's own check-in and check-out (and another move's) by the move.
      const push = { hotelId, bookingId, event, attempt, roomId, ...(moveId && { instance: moveId }) };
      const result = await tv.pushStay(push, desk, WORKER_PUSH_TIMEOUT_MS);
      if (result.skipped) return 'skipped';
      const { outcome } = result;
      if (outcome.kind === 'ok') return 'ok';
      // Only the words of the log travel in the failure: never the guest's name.
      if (outcome.kind === 'refused') throw ApplicationFailure.nonRetryable(outcome.detail, TV_PUSH_REFUSED);
      throw ApplicationFailure.retryable(outcome.detail, 'TvPushFailed');
    },
  };
}
