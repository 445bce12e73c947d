import type { Knex } from 'knex';
import type { DbOrTrx } from '../../platform/db/knex';
import { ConflictError } from '../../platform/errors';
import type { Booking, HeldStay } from '../bookings';
import { blocksRepository as repository } from './blocks.repository';
import { blockMessages } from './blocks.service';
import { holds } from './blocks.types';

const STAY_HOLDS_ROOM: readonly Booking['status'][] = ['inquiry', 'confirmed', 'checked_in'];

export const holdMessages = {
  held: (night: string) =>
    `Свободные номера этой категории на ночь ${night} удержаны групповым блоком: продать их можно только по блоку`,
  overdrawn: (night: string, rooms: number) =>
    `Блок держит на ночь ${night} номеров этой категории: ${rooms}; все они уже забронированы`,
};

/**
 * A stay just written, checked against what blocks hold, in its transaction. A category with no held units on the
 * stay's nights costs one indexed read and no lock; otherwise the category's hold lock serializes the check with every
 * other stay and block write of it, so the count it makes is the truth at commit. A block's own stay may take what the
 * block holds and no more on the nights (of the category) the block holds; on any other night (a stay extended, or
 * moved to another category) it is any stay: it may take a room only where the free rooms left still cover every
 * unit held.
 */
async function guard(trx: Knex.Transaction, booking: Booking): Promise<void> {
  if (!STAY_HOLDS_ROOM.includes(booking.status)) return;
  const { hotel_id: hotelId, category_id: categoryId } = booking;
  // A block written meanwhile waits for this stay's commit (see lockCategories); a block written before is seen here.
  await repository.shareCategory(trx, hotelId, categoryId);
  let held = await repository.heldNightsOf(trx, hotelId, categoryId, {
    start: booking.start_at,
    end: booking.end_at,
  });
  if (held.length === 0 && !booking.block_id) return;
  await repository.lockHolds(trx, hotelId, categoryId);
  // A stay of a block that holds (read under the lock) takes its units; once the block is cancelled, it is any stay.
  const block = booking.block_id && (await repository.find(trx, hotelId, booking.block_id));
  if (block && holds(block.status) && booking.check_in && booking.check_out) {
    const only = { categoryId, from: booking.check_in, to: booking.check_out };
    const [over] = await repository.overdrawn(trx, hotelId, block.id, only);
    if (over) throw new ConflictError(holdMessages.overdrawn(over.night, over.rooms), 'block_overdrawn');
    const own = new Set(
      (await repository.nights(trx, hotelId, block.id))
        .filter((night) => night.category_id === categoryId)
        .map((night) => night.night),
    );
    held = held.filter((night) => !own.has(night));
  }
  const [short] = await repository.shortfalls(trx, hotelId, categoryId, held);
  if (short) throw new ConflictError(holdMessages.held(short.night), 'held_by_block');
}

/**
 * Before a stay is written, in the order every block write locks in (the block's row, then the category's, then the
 * hold lock), so the two may wait for each other's commit but never in a cycle (no deadlock): a pickup's block row key-shared first, read as it now is (a
 * block cancelled or made an inquiry meanwhile is refused here, 409 `block_not_holding`, and none can be until this
 * stay commits), then the category's row key-shared (a block's write waits for this stay's commit from here on, and
 * one that committed before is seen by the read that follows), then, where the stay may take a held unit, the
 * category's hold lock. The insert's foreign keys then take no lock this stay does not already hold.
 * Answers whether the stay must be guarded once written.
 */
async function enter(trx: Knex.Transaction, { hotelId, categoryId, span, blockId }: HeldStay): Promise<boolean> {
  if (blockId) {
    const block = await repository.shareBlock(trx, hotelId, blockId);
    if (!block || !holds(block.status)) throw new ConflictError(blockMessages.notHolding, 'block_not_holding');
  }
  await repository.shareCategory(trx, hotelId, categoryId);
  if (!blockId && (await repository.heldNightsOf(trx, hotelId, categoryId, span)).length === 0) return false;
  await repository.lockHolds(trx, hotelId, categoryId);
  return true;
}

/** Per category with held units, per night of `count` from `from`: the units held and not picked up. */
async function held(conn: DbOrTrx, hotelId: string, from: string, count: number): Promise<Map<string, number[]>> {
  const byCategory = new Map<string, number[]>();
  for (const row of await repository.unpicked(conn, hotelId, from, count)) {
    let nights = byCategory.get(row.category_id);
    if (!nights) byCategory.set(row.category_id, (nights = new Array<number>(count).fill(0)));
    nights[row.day] = row.held;
  }
  return byCategory;
}

/** What the bookings are given to take held units out of what they sell. */
export const inventoryHolds = { enter, guard, held };
