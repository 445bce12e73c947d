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
 * after its first change), and no sooner than CHANNEL_PUSH_INTERVAL_MS after the last push (the channel's per-kind
 * limit, kept across continue-as-new), one push reads the current values and sends what changed, retried on a 429 or
 * no answer. A full request whose push fails (not retryable) is owed: the next push, on the next change, is full. A push that saw the inventory move under it (`stale`) is followed by another; the hotel's midnight
 * (the window moves: a new last day, leads shift) wakes one by itself, which reconciles first (what the channel
 * holds compared with what it was sent: the nightly check; staff may ask for one too); the first push after a
 * midnight that passed while changes were pending reconciles too. Being the push's own step, a
 * reconciliation never races a push in flight. A refusal for good is recorded on the
 * connection by the push and the workflow goes on with the next change. It ends when the hotel is disconnected and
 * no change came meanwhile (a reconnection's full sync is not lost), and continues as new every
 * CHANNEL_PUSHES_PER_RUN pushes (or when the history grows long), carrying the change not pushed yet.
 */
export async function channelSync(input: ChannelSyncInput): Promise<void> {
  let pending: ChannelChange | null = input.pending ?? null;
  let changedAt = Date.now();
  let firstAt = changedAt;
  const take = (change: ChannelChange) => {
    if (pending === null) firstAt = Date.now();
    const reconcile = (pending?.reconcile ?? false) || change.reconcile === true;
    pending = { full: (pending?.full ?? false) || change.full, ...(reconcile && { reconcile }) };
    changedAt = Date.now();
  };
  setHandler(channelChanged, take);
  let lastPush = input.lastPush ?? 0;
  let nextDayAt = input.nextDayAt;
  let fullOwed = input.fullOwed ?? false;
  for (let pushes = 0; pushes < CHANNEL_PUSHES_PER_RUN && !historyFull(); pushes += 1) {
    // A change, or the hotel's midnight (known from a push: none before the first).
    if (nextDayAt === undefined) await condition(() => pending !== null);
    else if (!(await condition(() => pending !== null, Math.max(1, nextDayAt - Date.now())))) {
      nextDayAt = undefined;
      take({ full: false, reconcile: true });
    }
    // Quiet for the debounce time (or the longest delay since the first change), and the channel's interval.
    for (;;) {
      const settled = Math.min(changedAt + CHANNEL_DEBOUNCE_MS, firstAt + CHANNEL_MAX_DELAY_MS);
      const wait = Math.max(settled, lastPush + CHANNEL_PUSH_INTERVAL_MS) - Date.now();
      if (wait <= 0) break;
      await sleep(wait);
    }
    // The hotel's midnight passed while changes kept coming (a busy hotel): this push is its nightly check.
    const midnight = nextDayAt !== undefined && Date.now() >= nextDayAt;
    if (midnight) nextDayAt = undefined;
    const change: ChannelChange = { full: pending!.full || fullOwed, reconcile: pending!.reconcile || midnight };
    pending = null;
    fullOwed = false;
    try {
      const result = await pushChannelAri({
        hotelId: input.hotelId,
        full: change.full,
        ...(change.reconcile && { reconcile: true }),
      });
      if (result.status === 'gone' && pending === null) return;
      if (result.stale) take({ full: false });
      if (result.nextDayAt !== undefined) nextDayAt = result.nextDayAt;
    } catch (error) {
      if (!(error instanceof ActivityFailure)) throw error;
      fullOwed = change.full;
    } finally {
      lastPush = Date.now();
    }
  }
  await continueAsNew<typeof channelSync>({ hotelId: input.hotelId, pending, lastPush, nextDayAt, fullOwed });
}
function historyFull(): boolean {
  const info = workflowInfo();
  return info.continueAsNewSuggested || info.historyLength > CHANNEL_HISTORY_LIMIT;
}
