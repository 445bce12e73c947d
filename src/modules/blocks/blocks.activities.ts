import type { BlockReleaseActivities } from '../../../workflows/contracts/blocks';
import type { BlocksService } from './blocks.service';

/** The release workflow's activity, a thin call into the service. */
export function blocksActivities(blocks: BlocksService): BlockReleaseActivities {
  return { releaseBlockNights: (hotelId, blockId) => blocks.release(hotelId, blockId) };
}
