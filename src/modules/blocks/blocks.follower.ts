import type { StayFollower } from '../bookings';
import { blocksRepository as repository } from './blocks.repository';
import { wakeRelease } from './blocks.service';
import { holds } from './blocks.types';

/**
 * A stay of a block with a release rule that stops holding its room (cancelled, or checked out early) frees a unit the
 * block holds: the block's release workflow is woken in the stay's transaction (through the outbox), so a night whose
 * release time has passed gives the unit back at once, and one still to come at its time. Nothing is asked of the
 * stay's own workflow.
 */
export const blocksStayFollower: StayFollower = {
  statuses: ['cancelled', 'checked_out'],
  async effectsOf(trx, booking) {
    if (!booking.block_id) return {};
    const block = await repository.find(trx, booking.hotel_id, booking.block_id);
    if (block && holds(block.status) && block.release_kind !== 'none')
      await wakeRelease(trx, block, await repository.hotelSlug(trx, booking.hotel_id));
    return {};
  },
};
