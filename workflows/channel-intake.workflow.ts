import {
  condition,
  continueAsNew,
  defineSignal,
  patched,
  proxyActivities,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import {
  CHANNEL_INTAKE_FETCH_SIGNAL,
  CHANNEL_INTAKE_NAMED_PER_ROUND,
  CHANNEL_INTAKE_OPTIONS,
  CHANNEL_INTAKE_POLL,
  CHANNEL_INTAKE_POLL_BEFORE,
  CHANNEL_INTAKE_POLL_PATCH,
  CHANNEL_INTAKE_ROUNDS_PER_RUN,
  type ChannelIntakeActivities,
  type ChannelIntakeFetch,
  type ChannelIntakeInput,
} from './contracts/channel-intake';

const activities = proxyActivities<ChannelIntakeActivities>(CHANNEL_INTAKE_OPTIONS);
export const channelIntakeFetch = defineSignal<[Partial<ChannelIntakeFetch>?]>(CHANNEL_INTAKE_FETCH_SIGNAL);

/**
 * A connected hotel's booking intake (`channel-intake:<hotelId>`): a round reads the revisions the webhooks named,
 * then the channel's feed, and applies and acknowledges each; then it waits for a "fetch" (a webhook, the schedule's
 * sweep) or CHANNEL_INTAKE_POLL (a minute in a run started before its patch), and reads again. One run per hotel
 * applies the hotel's revisions one at a time. It continues as new every CHANNEL_INTAKE_ROUNDS_PER_RUN rounds or when
 * the server suggests it (the named revisions not read yet go with it), and ends when the hotel is no longer
 * connected. The sweep starts it for every connected hotel (connecting the channel is enough; the webhook's
 * registration only wakes it sooner).
 */
export async function channelIntake(input: ChannelIntakeInput & Partial<ChannelIntakeFetch>): Promise<void> {
  const poll = patched(CHANNEL_INTAKE_POLL_PATCH) ? CHANNEL_INTAKE_POLL : CHANNEL_INTAKE_POLL_BEFORE;
  const named = new Set(input.revisionIds ?? []);
  let fetch = named.size > 0;
  setHandler(channelIntakeFetch, (signal) => {
    for (const id of signal?.revisionIds ?? []) named.add(id);
    fetch = true;
  });
  for (let round = 0; round < CHANNEL_INTAKE_ROUNDS_PER_RUN && !workflowInfo().continueAsNewSuggested; round += 1) {
    fetch = false;
    const revisionIds = [...named].slice(0, CHANNEL_INTAKE_NAMED_PER_ROUND);
    const result = await activities.pullChannelRevisions({ hotelId: input.hotelId, revisionIds });
    for (const id of revisionIds) named.delete(id);
    if (!result.connected) return;
    if (named.size === 0) await condition(() => fetch, poll);
  }
  await continueAsNew<typeof channelIntake>({ hotelId: input.hotelId, revisionIds: [...named] });
}

/** The schedule's sweep (every minute): each connected hotel's intake woken, started or revived. */
export async function channelIntakeSweep(): Promise<void> {
  await activities.wakeChannelIntakes();
}
