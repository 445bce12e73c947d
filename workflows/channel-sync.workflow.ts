import {
  ActivityFailure,
  condition,
  continueAsNew,
  defineSignal,
  proxyActivities,
  setHandler,
  sleep,
  workflowInfo,
} from '@temporalio/workflow';
import {
  CHANNEL_CHANGED_SIGNAL,
  CHANNEL_DEBOUNCE_MS,
  CHANNEL_HISTORY_LIMIT,
  CHANNEL_MAX_DELAY_MS,
  CHANNEL_PUSH_INTERVAL_MS,
  CHANNEL_PUSH_OPTIONS,
  CHANNEL_PUSHES_PER_RUN,
  type ChannelActivities,
  type ChannelChange,
  type ChannelSyncInput,
} from './contracts/channels';

const { pushChannelAri } = proxyActivities<ChannelActivities>(CHANNEL_PUSH_OPTIONS);
export const channelChanged = defineSignal<[ChannelChange]>(CHANNEL_CHANGED_SIGNAL);

/**
 * A connected hotel's ARI sync (`channels:<hotelId>`), in order: changes arrive as signals and are coalesced (a full
 * one absorbs the rest); once they stop for CHANNEL_DEBOUNCE_MS (a stream that never stops: CHANNEL_MAX_DELAY_MS
 * after its first change), and no sooner than CHANNEL_PUSH_INTERVAL_MS after
 * the last push (the channel's per-kind limit), one push reads the current values and sends what changed, retried on
 * a 429 or no answer. A refusal (the key or the property) is recorded on the connection by the push and the workflow
 * waits for the next change. It ends when the hotel is disconnected, and continues as new every
 * CHANNEL_PUSHES_PER_RUN pushes (or when the history grows long), carrying the change not pushed yet.
 */
export async function channelSync(input: ChannelSyncInput): Promise<void> {
  let pending: ChannelChange | null = input.pending ?? null;
  let changedAt = Date.now();
  let firstAt = changedAt;
  setHandler(channelChanged, (change) => {
    if (pending === null) firstAt = Date.now();
    pending = { full: (pending?.full ?? false) || change.full };
    changedAt = Date.now();
  });
  let lastPush = 0;
  for (let pushes = 0; pushes < CHANNEL_PUSHES_PER_RUN && !historyFull(); pushes += 1) {
    await condition(() => pending !== null);
    // Quiet for the debounce time (or the longest delay since the first change), and the channel's interval.
    for (;;) {
      const settled = Math.min(changedAt + CHANNEL_DEBOUNCE_MS, firstAt + CHANNEL_MAX_DELAY_MS);
      const wait = Math.max(settled, lastPush + CHANNEL_PUSH_INTERVAL_MS) - Date.now();
      if (wait <= 0) break;
      await sleep(wait);
    }
    const change: ChannelChange = pending!;
    pending = null;
    try {
      const result = await pushChannelAri({ hotelId: input.hotelId, full: change.full });
      if (result.status === 'gone') return;
    } catch (error) {
      if (!(error instanceof ActivityFailure)) throw error;
    } finally {
      lastPush = Date.now();
    }
  }
  await continueAsNew<typeof channelSync>({ hotelId: input.hotelId, pending });
}

function historyFull(): boolean {
  const info = workflowInfo();
  return info.continueAsNewSuggested || info.historyLength > CHANNEL_HISTORY_LIMIT;
}
