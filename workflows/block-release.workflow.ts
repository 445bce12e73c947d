import { condition, proxyActivities, setHandler } from '@temporalio/workflow';
import { blockChangedSignal, type BlockReleaseActivities, type BlockReleaseInput } from './contracts/blocks';

const { releaseBlockNights } = proxyActivities<BlockReleaseActivities>({
  startToCloseTimeout: '1 minute',
  retry: { maximumAttempts: 10 },
});

/**
 * One per block with a release rule: releases what was not picked up as each night's release time comes, and sleeps
 * until the next, woken early when the block changes. Ends when nothing is left to release (a change starts it again).
 */
export async function blockRelease({ hotelId, blockId }: BlockReleaseInput): Promise<string> {
  let changed = false;
  setHandler(blockChangedSignal, () => {
    changed = true;
  });
  for (;;) {
    changed = false;
    const untilNext = await releaseBlockNights(hotelId, blockId);
    if (untilNext === null) return 'released';
    await condition(() => changed, untilNext);
  }
}
