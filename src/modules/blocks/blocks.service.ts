import { addDays } from '../../platform/dates';
import type { Knex } from 'knex';
import { refusalsAs } from '../../platform/db/base-model';
import type { PageRequest } from '../../platform/db/keyset';
import type { Db } from '../../platform/db/knex';
import { transactionWithRetry } from '../../platform/db/retry';
import { BusinessRuleError, ConflictError, NotFoundError, ValidationError } from '../../platform/errors';
import { daysBetween } from '../../platform/http/schemas';
import { formatMoney, parseMoney } from '../../platform/money';
import { enqueueOutbox } from '../../platform/db/outbox';
import { blockChangedSignal, blockReleaseWorkflowId } from '../../../workflows/contracts/blocks';
import type { BookingsService } from '../bookings';
import type { NotificationsService } from '../notifications';
import { assertFits, droppedWithStays, firstNotHeld, grownNights, nightsOfAllotment } from './blocks.allotment';
import { blocksRepository as repository } from './blocks.repository';
import {
  holds,
  type Block,
  type BlockChanges,
  type BlockInput,
  type BlockNight,
  type AllotmentItem,
  type BlockStatus,
  type NightCount,
  type PickupGuest,
} from './blocks.types';

export const blockMessages = {
  notFound: 'Блок не найден',
  cancelled: 'Отменённый блок не меняется',
  tariff: 'Тариф не найден',
  short: (category: string, night: string, free: number, held: number) =>
    `Недостаточно номеров категории «${category}» на ночь ${night}: свободно ${free}, блокам нужно ${held}`,
  belowPickup: (night: string, picked: number) =>
    `На ночь ${night} по блоку уже забронировано номеров этой категории: ${picked}; меньше оставить нельзя`,
  notHolding: 'Блок не удерживает номера (запрос или отменён): бронировать по нему нельзя',
  notInBlock: 'Блок не держит номеров этой категории',
  nightNotHeld: (night: string) => `Блок не держит номеров этой категории на ночь ${night}`,
  washTooMuch: (night: string) =>
    `На ночь ${night} блок не держит столько номеров сверх уже забронированных: ничего не снято`,
};

/** The staff's notice of a release: the block, and how many units of how many nights went back on sale. */
function releaseNotice(block: Block, released: { night: string; released: number }[]) {
  const units = released.reduce((sum, night) => sum + night.released, 0);
  const nights = [...new Set(released.map((night) => night.night))].sort();
  const span = nights.length === 1 ? nights[0] : `${nights[0]} — ${nights[nights.length - 1]}`;
  return {
    type: 'block_released' as const,
    title: `Блок «${block.name}»: невыкупленные номера возвращены в продажу`,
    body: `Возвращено номеро-ночей: ${units} (${span})`,
    data: { block_id: block.id },
    dedupeKey: `block_released:${block.id}:${nights[0]}:${nights[nights.length - 1]}:${units}:${Date.now()}`,
  };
}

/** A pickup's guests (read once the block is known to be this hotel's and to hold) and its `Idempotency-Key`. */
export interface PickupRequest {
  guests: () => Promise<PickupGuest[]>;
  idempotencyKey?: string;
}

/** Who acts, as the bookings record it. */
export interface BlockActor {
  userId: string | null;
  hotelSlug: string;
}

export interface BlocksDependencies {
  bookings: Pick<BookingsService, 'createAll' | 'holdInventory' | 'followStays'>;
  notifications: Pick<NotificationsService, 'notify'>;
}

/**
 * The block's own fields of a change; a release rule given whole (its kind clears the value it does not use); a
 * tariff given clears the price per night and a price the tariff (a block has one or neither).
 */
function rowOf({ allotment: _allotment, ...given }: BlockChanges): Partial<Block> {
  const fields = {
    ...given,
    ...(given.tariff_id && { price_per_night: null }),
    ...(given.price_per_night && { tariff_id: null }),
  };
  if (!fields.release_kind) return fields;
  return {
    ...fields,
    release_date: fields.release_kind === 'date' ? fields.release_date : null,
    release_days: fields.release_kind === 'rolling' ? fields.release_days : null,
  };
}

/** Starts the block's release workflow, or wakes it to read the block again (in the write's transaction). */
export async function wakeRelease(trx: Knex.Transaction, block: Block, hotelSlug: string) {
  await enqueueOutbox(trx, {
    kind: 'signalWithStart',
    workflowType: 'blockRelease',
    workflowId: blockReleaseWorkflowId(block.id),
    args: [{ hotelId: block.hotel_id, blockId: block.id }],
    signal: blockChangedSignal.name,
    signalArgs: [],
    searchAttributes: { HotelSlug: hotelSlug },
    memo: { hotel: hotelSlug, block: block.id },
    reviveFinished: true,
  });
}

/** The block and its nights (with what each has picked up and has still free), and the stays of its pickup. */
async function presented(conn: Knex | Knex.Transaction, block: Block) {
  const [nights, bookings] = await Promise.all([
    repository.nights(conn, block.hotel_id, block.id),
    repository.bookings(conn, block.hotel_id, block.id),
  ]);
  return { ...block, nights: nights.map(withFree), bookings };
}

const withFree = (night: BlockNight) => ({ ...night, free: Math.max(0, night.rooms - night.picked_up) });

/** `releaseClockAheadSeconds`: see `blocksEnv` (0 but in tests). */
export function createBlocksService(
  db: Db,
  { bookings, notifications }: BlocksDependencies,
  { releaseClockAheadSeconds: ahead } = { releaseClockAheadSeconds: 0 },
) {
  /** Refuses what the nights now held cannot have: fewer units than picked up, more than the category's free rooms. */
  async function assertInventory(trx: Knex.Transaction, block: Block, grown: Map<string, string[]>) {
    const [over] = await repository.overdrawn(trx, block.hotel_id, block.id);
    if (over) throw new ConflictError(blockMessages.belowPickup(over.night, over.picked), 'below_pickup');
    if (!holds(block.status)) return;
    const categories = await repository.categories(trx, block.hotel_id, [...grown.keys()]);
    for (const [categoryId, nights] of grown) {
      const [short] = await repository.shortfalls(trx, block.hotel_id, categoryId, nights);
      if (short) {
        const name = categories.get(categoryId)?.name ?? '';
        throw new ConflictError(
          blockMessages.short(name, short.night, short.free, short.unpicked),
          'rooms_not_available',
        );
      }
    }
  }

  /**
   * Writes the block (new, or changed under its lock) and, when given, its nights; then checks them against the
   * inventory as a booking is checked, under the locks of every category it held or holds.
   */
  async function write(hotelId: string, id: string | undefined, changes: BlockChanges, actor: BlockActor) {
    const refused = () =>
      new ValidationError(blockMessages.tariff, [{ path: 'body.tariff_id', message: blockMessages.tariff }]);
    return refusalsAs({ foreignKey: refused }, () =>
      transactionWithRetry(db, async (trx) => {
        const before = id ? await repository.find(trx, hotelId, id, true) : undefined;
        if (id && !before) throw new NotFoundError(blockMessages.notFound);
        if (before?.status === 'cancelled') throw new BusinessRuleError(blockMessages.cancelled);
        const nightsBefore = before ? await repository.nights(trx, hotelId, before.id) : [];
        const nights: NightCount[] = changes.allotment ? nightsOfAllotment(changes.allotment) : nightsBefore;
        const categoryIds = [...new Set([...nights, ...nightsBefore].map((night) => night.category_id))];
        if (changes.allotment) assertFits(changes.allotment, await repository.categories(trx, hotelId, categoryIds));
        await repository.lockCategories(trx, hotelId, categoryIds);
        const fields = { ...rowOf(changes), ...(changes.status === 'cancelled' && { cancelled_at: new Date() }) };
        const block = before
          ? await repository.update(trx, hotelId, before.id, fields)
          : await repository.insert(trx, hotelId, { ...fields, created_by: actor.userId });
        const dropped = changes.allotment && droppedWithStays(nights, nightsBefore);
        if (dropped)
          throw new ConflictError(blockMessages.belowPickup(dropped.night, dropped.picked_up), 'below_pickup');
        if (changes.allotment) await repository.replaceNights(trx, hotelId, block.id, nights);
        await assertInventory(trx, block, grownNights(nights, nightsBefore, before ? holds(before.status) : false));
        if (block.release_kind !== 'none' || (before && before.release_kind !== 'none'))
          await wakeRelease(trx, block, actor.hotelSlug);
        return presented(trx, block);
      }),
    );
  }

  async function found(hotelId: string, id: string): Promise<Block> {
    const block = await repository.find(db, hotelId, id);
    if (!block) throw new NotFoundError(blockMessages.notFound);
    return block;
  }

  /** The stays a pickup asks for, as bookings of the block: its price per night or its tariff, a room at once. */
  function bookingInputs(block: Block, nights: BlockNight[], guests: PickupGuest[]) {
    const categories = new Set(nights.map((night) => night.category_id));
    return (
      guests
        .map((guest, index) => {
          if (!categories.has(guest.category_id)) {
            const message = blockMessages.notInBlock;
            throw new ValidationError(message, [{ path: `body.guests.${index}.category_id`, message }]);
          }
          // A pickup books the nights the block holds; a stay of the group is extended afterwards as any stay.
          const unheld = firstNotHeld(nights, guest.category_id, guest.check_in, guest.check_out);
          if (unheld) throw new ConflictError(blockMessages.nightNotHeld(unheld), 'block_overdrawn');
          const stayNights = BigInt(Math.max(daysBetween(guest.check_in, guest.check_out), 0));
          return {
            ...guest,
            status: 'confirmed' as const,
            source: 'other' as const,
            unattended_strategy: 'sequential' as const,
            block_id: block.id,
            tariff_id: block.tariff_id,
            ...(block.price_per_night && { price: formatMoney(parseMoney(block.price_per_night) * stayNights) }),
          };
        })
        // One category after another (its lock taken once); in each, the rooms named first, before assignment picks.
        .sort((a, b) => a.category_id.localeCompare(b.category_id) || Number(!a.room_id) - Number(!b.room_id))
    );
  }

  const service = {
    create: (hotelId: string, input: BlockInput, actor: BlockActor) => write(hotelId, undefined, input, actor),

    /**
     * Changes the block; its nights are checked against the inventory as a booking's are. Cancelling it releases
     * what it holds; its stays stay, as ordinary bookings (the answer lists them), and a change of theirs is then
     * checked as any stay's.
     */
    update: (hotelId: string, id: string, changes: BlockChanges, actor: BlockActor) =>
      write(hotelId, id, changes, actor),

    /**
     * A wash: takes units off nights by hand (recorded in `washed`), never below what is picked up on a night (409
     * `below_pickup` names it; nothing is taken). Taking units off frees rooms, so nothing else is checked.
     */
    async wash(hotelId: string, id: string, items: AllotmentItem[]) {
      return transactionWithRetry(db, async (trx) => {
        const block = await repository.find(trx, hotelId, id, true);
        if (!block) throw new NotFoundError(blockMessages.notFound);
        if (block.status === 'cancelled') throw new BusinessRuleError(blockMessages.cancelled);
        const nights = nightsOfAllotment(items, 'items');
        const heldNights = await repository.nights(trx, hotelId, id);
        items.forEach((item, index) => {
          const unheld = firstNotHeld(heldNights, item.category_id, item.from, addDays(item.to, 1));
          if (!unheld) return;
          const message = heldNights.some((night) => night.category_id === item.category_id)
            ? blockMessages.nightNotHeld(unheld)
            : blockMessages.notInBlock;
          throw new ValidationError(message, [{ path: `body.items.${index}.category_id`, message }]);
        });
        await repository.lockCategories(trx, hotelId, [...new Set(nights.map((night) => night.category_id))]);
        const [refused] = await repository.wash(trx, hotelId, id, nights);
        if (refused) throw new ConflictError(blockMessages.washTooMuch(refused.night), 'below_pickup');
        return presented(trx, await repository.update(trx, hotelId, id, {}));
      });
    },

    /** The release workflow's activity: see `BlockReleaseActivities.releaseBlockNights`. */
    async release(hotelId: string, id: string): Promise<number | null> {
      return transactionWithRetry(db, async (trx) => {
        const block = await repository.find(trx, hotelId, id, true);
        if (!block || !holds(block.status) || block.release_kind === 'none') return null;
        const categories = (await repository.nights(trx, hotelId, id)).map((night) => night.category_id);
        await repository.lockCategories(trx, hotelId, categories);
        const released = await repository.release(trx, hotelId, id, ahead);
        if (released.length > 0) await notifications.notify(trx, hotelId, releaseNotice(block, released));
        return repository.nextRelease(trx, hotelId, id, ahead);
      });
    },

    async get(hotelId: string, id: string) {
      return presented(db, await found(hotelId, id));
    },

    async list(hotelId: string, { status, ...page }: { status?: BlockStatus } & PageRequest) {
      return repository.list(db, hotelId, status, page);
    },

    /**
     * The group's stays from the block, all or none, each in a room at once (the one named, or by the hotel's
     * assignment), never more than the block holds on a night: the bookings' own check, under the category's lock.
     */
    async pickup(hotelId: string, id: string, request: PickupRequest, actor: BlockActor) {
      // Whether the block holds is read in the bookings' transaction, under its row's lock (`enter`), after a retry
      // with the same `Idempotency-Key` was answered as the first time.
      const block = await found(hotelId, id);
      const guests = await request.guests();
      const nights = await repository.nights(db, hotelId, id);
      const inputs = bookingInputs(block, nights, guests);
      const created = await bookings.createAll(hotelId, inputs, actor, request.idempotencyKey);
      return { status: created.status, body: { block_id: id, bookings: created.body } };
    },

    /** Per night (and category): held now, picked up, released, washed and still free. */
    async report(hotelId: string, id: string) {
      await found(hotelId, id);
      return (await repository.nights(db, hotelId, id)).map(withFree);
    },
  };
  return service;
}

export type BlocksService = ReturnType<typeof createBlocksService>;
