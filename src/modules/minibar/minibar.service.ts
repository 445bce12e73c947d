import Joi from 'joi';
import type { Knex } from 'knex';
import type { PageRequest } from '../../platform/db/keyset';
import type { Db, DbOrTrx } from '../../platform/db/knex';
import { refusalsAs } from '../../platform/db/base-model';
import { createFollowers } from '../../platform/followers';
import {
  BusinessRuleError,
  ConflictError,
  NotFoundError,
  ValidationError,
  type ValidationDetail,
} from '../../platform/errors';
import { missingOrStale, type ExpectedVersion } from '../../platform/http/concurrency';
import { validate } from '../../platform/http/validate';
import { consumptionsRepository, itemsRepository, stockRepository } from './minibar.repository';
import { MAX_STOCK, minibarCheckItems } from './minibar.schemas';
import type {
  ConsumptionFilter,
  MinibarCharge,
  MinibarChargeFollower,
  MinibarCheck,
  MinibarConsumption,
  MinibarConsumptionRow,
  MinibarItemFilter,
  MinibarItemInput,
  MovementFilter,
  MovementInput,
  StockLevel,
  StockMovement,
} from './minibar.types';

export const minibarMessages = {
  itemNotFound: 'Позиция мини-бара не найдена',
  itemNameTaken: 'Позиция мини-бара с таким названием уже существует',
  itemHasConsumption: 'По позиции уже записано потребление: удалить её нельзя, сделайте её неактивной',
  unknownItems: 'Неизвестные или неактивные позиции мини-бара',
  unknownItem: 'нет такой позиции в этом отеле',
  inactiveItem: 'позиция неактивна',
  stockLimit: `Остаток позиции должен оставаться в пределах ±${MAX_STOCK} шт.`,
};

const checkSchema = Joi.object({
  taskId: Joi.string().uuid().required(),
  roomId: Joi.string().uuid().required(),
  bookingId: Joi.string().uuid().allow(null),
  recordedBy: Joi.string().uuid().required(),
  items: minibarCheckItems.required(),
});

/**
 * Records a housekeeping task's minibar check inside the caller's transaction, with replace semantics: afterwards the
 * task's consumptions are exactly `items` (a quantity of 0, or an item left out, means none). A row first recorded
 * freezes the item's current price; a changed quantity updates the row (`quantity`, `recorded_at`, `recorded_by`) and
 * keeps its price. The stock moves by exactly the net change, as `consumption` movements carrying the task id, so the
 * same check sent any number of times (also concurrently) records it once. Calls for one task are serialized (an
 * advisory lock, then the task's rows and the items locked FOR UPDATE); the transaction must be READ COMMITTED
 * (PostgreSQL's default), so a call that waited sees what the one before it committed.
 *
 * Refuses (ValidationError, 400) item ids that are unknown, of another hotel, or inactive (an inactive item is
 * accepted only when the task already recorded it). Returns the task's consumptions.
 */
async function recordMinibarCheck(
  trx: Knex.Transaction,
  hotelId: string,
  check: MinibarCheck,
  told: MinibarChargeFollower,
): Promise<MinibarConsumption[]> {
  const { taskId, roomId, bookingId, recordedBy, items } = validate<MinibarCheck>(checkSchema, check, 'body');
  await consumptionsRepository.lockTask(trx, hotelId, taskId);
  const existing = new Map((await consumptionsRepository.lockForTask(trx, hotelId, taskId)).map((r) => [r.item_id, r]));
  const wanted = new Map(items.filter((line) => line.quantity > 0).map((line) => [line.item_id, line.quantity]));

  const itemIds = [...new Set([...items.map((line) => line.item_id), ...existing.keys()])];
  const known = new Map((await itemsRepository.lock(trx, hotelId, itemIds)).map((item) => [item.id, item]));
  const refused: ValidationDetail[] = [];
  const refusedIds: string[] = [];
  items.forEach((line, index) => {
    const item = known.get(line.item_id);
    const problem = !item
      ? minibarMessages.unknownItem
      : item.is_active || line.quantity === 0 || existing.has(line.item_id)
        ? undefined
        : minibarMessages.inactiveItem;
    if (problem) {
      refused.push({ path: `body.items.${index}.item_id`, message: `${line.item_id}: ${problem}` });
      refusedIds.push(line.item_id);
    }
  });
  if (refused.length > 0) {
    throw new ValidationError(`${minibarMessages.unknownItems}: ${refusedIds.join(', ')}`, refused);
  }

  const movements: Array<Partial<StockMovement>> = [];
  const consumed = (itemId: string, delta: number) => {
    if (delta !== 0) {
      movements.push({
        item_id: itemId,
        kind: 'consumption',
        quantity: -delta,
        task_id: taskId,
        created_by: recordedBy,
      });
    }
  };
  for (const [itemId, quantity] of wanted) {
    const row = existing.get(itemId);
    if (!row) {
      await consumptionsRepository.insert(trx, hotelId, {
        task_id: taskId,
        room_id: roomId,
        booking_id: bookingId ?? null,
        item_id: itemId,
        quantity,
        price_per_unit: known.get(itemId)!.price,
        recorded_by: recordedBy,
      });
      consumed(itemId, quantity);
      continue;
    }
    // The stay the row belongs to follows the latest check (a booking id may be known only later).
    const stay = { room_id: roomId, ...(bookingId !== undefined && { booking_id: bookingId }) };
    const stayChanged = row.room_id !== roomId || (bookingId !== undefined && row.booking_id !== bookingId);
    if (row.quantity !== quantity) {
      await consumptionsRepository.update(trx, hotelId, row.id, {
        ...stay,
        quantity,
        recorded_by: recordedBy,
        recorded_at: trx.fn.now(),
      });
      consumed(itemId, quantity - row.quantity);
    } else if (stayChanged) {
      await consumptionsRepository.update(trx, hotelId, row.id, stay);
    }
  }
  const removed = [...existing.values()].filter((row) => !wanted.has(row.item_id));
  await consumptionsRepository.delete(
    trx,
    hotelId,
    removed.map((row) => row.id),
  );
  for (const row of removed) consumed(row.item_id, -row.quantity);
  await stockRepository.insertMovements(trx, hotelId, movements);
  const consumptions = await consumptionsRepository.forTask(trx, hotelId, taskId);
  for (const charge of chargesOf(hotelId, check, consumptions, removed)) await told(trx, charge);
  return consumptions;
}

/** What each item of the task comes to after the check: its row's amount, or nothing for a row the check dropped. */
function chargesOf(
  hotelId: string,
  { taskId, roomId, recordedBy }: MinibarCheck,
  consumptions: MinibarConsumption[],
  removed: MinibarConsumptionRow[],
): MinibarCharge[] {
  const charge = (row: MinibarConsumptionRow, amount: string, description: string): MinibarCharge => ({
    hotelId,
    taskId,
    itemId: row.item_id,
    roomId,
    bookingId: row.booking_id,
    amount,
    description,
    recordedBy,
  });
  return [
    ...consumptions.map((row) => charge(row, row.amount, `Мини-бар: ${row.item_name} × ${row.quantity}`)),
    ...removed.map((row) => charge(row, '0.00', 'Мини-бар: позиция снята при проверке')),
  ];
}

export function createMinibarService(db: Db) {
  const conflictsAsErrors = <T>(write: () => Promise<T>) =>
    refusalsAs(
      { unique: { minibar_items_hotel_id_name_unique: () => new ConflictError(minibarMessages.itemNameTaken) } },
      write,
    );

  const itemMissingOrStale = (hotelId: string, id: string, expected: ExpectedVersion | undefined) =>
    missingOrStale(
      expected,
      () => itemsRepository.find(db, hotelId, id),
      new NotFoundError(minibarMessages.itemNotFound),
    );

  async function assertItem(trx: Knex.Transaction, hotelId: string, itemId: string) {
    const [item] = await itemsRepository.lock(trx, hotelId, [itemId]);
    if (!item) {
      throw new ValidationError(minibarMessages.itemNotFound, [
        { path: 'body.item_id', message: minibarMessages.itemNotFound },
      ]);
    }
    return item;
  }

  const followers = createFollowers<Parameters<MinibarChargeFollower>>();

  return {
    /** Called by the module keeping the stays' books (after this one, whose service it uses), when it is built. */
    followCharges: followers.add,

    recordCheck: (trx: Knex.Transaction, hotelId: string, check: MinibarCheck) =>
      recordMinibarCheck(trx, hotelId, check, followers.tell),

    /** What the guests of a stay took from the minibar (the checks of the tasks made for that booking). */
    consumptionsForBooking: (hotelId: string, bookingId: string, conn: DbOrTrx = db): Promise<MinibarConsumption[]> =>
      consumptionsRepository.forBooking(conn, hotelId, bookingId),

    /** The consumptions a task's minibar check recorded (empty before any check). */
    consumptionsForTask: (hotelId: string, taskId: string, conn: DbOrTrx = db): Promise<MinibarConsumption[]> =>
      consumptionsRepository.forTask(conn, hotelId, taskId),

    /** Whether a turnover clean must include a minibar check: the hotel sells at least one minibar item. */
    hasActiveItems: (hotelId: string, conn: DbOrTrx = db): Promise<boolean> => itemsRepository.anyActive(conn, hotelId),

    items: {
      list: (hotelId: string, { limit, cursor, ...filter }: MinibarItemFilter & PageRequest) =>
        itemsRepository.list(db, hotelId, filter, { limit, cursor }),

      async get(hotelId: string, id: string) {
        const item = await itemsRepository.find(db, hotelId, id);
        if (!item) throw new NotFoundError(minibarMessages.itemNotFound);
        return item;
      },

      create: (hotelId: string, input: MinibarItemInput & { name: string; price: string }) =>
        conflictsAsErrors(() => itemsRepository.insert(db, hotelId, input)),

      async update(hotelId: string, id: string, input: MinibarItemInput, expected?: ExpectedVersion) {
        const item = await conflictsAsErrors(() => itemsRepository.update(db, hotelId, id, input, expected));
        if (!item) throw await itemMissingOrStale(hotelId, id, expected);
        return item;
      },

      async remove(hotelId: string, id: string, expected?: ExpectedVersion): Promise<void> {
        const deleted = await refusalsAs(
          { foreignKey: () => new ConflictError(minibarMessages.itemHasConsumption) },
          () => itemsRepository.delete(db, hotelId, id, expected),
        );
        if (!deleted) throw await itemMissingOrStale(hotelId, id, expected);
      },
    },

    stock: (hotelId: string, { limit, cursor, ...filter }: MinibarItemFilter & PageRequest) =>
      stockRepository.levels(db, hotelId, filter, { limit, cursor }),

    /**
     * A receipt adds `quantity`, a write-off subtracts it, an inventory count sets the stock to `quantity` and
     * records the difference (with `counted_quantity`). Returns the movement and the item's new stock.
     */
    async postMovement(
      hotelId: string,
      userId: string | null,
      input: MovementInput,
    ): Promise<{ movement: StockMovement; stock: StockLevel }> {
      return db.transaction(async (trx) => {
        await assertItem(trx, hotelId, input.item_id);
        const before = await stockRepository.level(trx, hotelId, input.item_id);
        const delta =
          input.kind === 'receipt'
            ? input.quantity
            : input.kind === 'write_off'
              ? -input.quantity
              : input.quantity - before.quantity;
        if (Math.abs(before.quantity + delta) > MAX_STOCK)
          throw new BusinessRuleError(minibarMessages.stockLimit, [], 'amount_limit');
        const [movement] = await stockRepository.insertMovements(trx, hotelId, [
          {
            item_id: input.item_id,
            kind: input.kind,
            quantity: delta,
            counted_quantity: input.kind === 'inventory' ? input.quantity : null,
            note: input.note ?? '',
            created_by: userId,
          },
        ]);
        return { movement, stock: { ...before, quantity: before.quantity + delta } };
      });
    },

    listMovements: (hotelId: string, { limit, cursor, ...filter }: MovementFilter & PageRequest) =>
      stockRepository.listMovements(db, hotelId, filter, { limit, cursor }),

    listConsumptions: (hotelId: string, { limit, cursor, ...filter }: ConsumptionFilter & PageRequest) =>
      consumptionsRepository.list(db, hotelId, filter, { limit, cursor }),
  };
}

export type MinibarService = ReturnType<typeof createMinibarService>;
