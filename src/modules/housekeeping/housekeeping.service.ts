import { transactionWithRetry } from '../../platform/db/retry';
import type { PageRequest } from '../../platform/db/keyset';
import type { Db, DbOrTrx } from '../../platform/db/knex';
import { BusinessRuleError, ForbiddenError, NotFoundError, ValidationError } from '../../platform/errors';
import type { AccessTokenPayload } from '../../platform/http/access-token';
import { assertVersion, type ExpectedVersion } from '../../platform/http/concurrency';
import type { Role } from '../../platform/http/roles';
import type { HotelsService } from '../hotels';
import type { MinibarCheckLine, MinibarService } from '../minibar';
import type { RoomsService } from '../rooms';
import type { UploadsService } from '../uploads';
import {
  checklistRepository,
  housekeepingSettingsRepository,
  tasksRepository,
  type TaskVisibility,
} from './housekeeping.repository';
import { taskCreated, taskDone, taskUpdated } from './housekeeping.events';
import { canMove, pickAssignee, roomStatusAfter } from './housekeeping.rules';
import type {
  HousekeepingSettings,
  HousekeepingTask,
  NewTaskInput,
  SettingsChanges,
  TaskCategory,
  TaskChanges,
  TaskFilter,
} from './housekeeping.types';

export const housekeepingMessages = {
  taskNotFound: 'Задача не найдена',
  roomNotFound: 'Номер не найден',
  checklistItemNotFound: 'Пункт чек-листа не найден',
  assigneeInvalid: 'Исполнитель должен быть активным сотрудником отеля',
  workerFields:
    'Исполнитель может менять статус, заметки и фотографии своей задачи, но не назначение, приоритет или тип',
  cannotComplete: 'Задачу нельзя завершить',
  checklistIncomplete: (items: string[]) => `Не выполнены пункты чек-листа: ${items.join(', ')}`,
  minibarIncomplete: 'Не выполнена проверка минибара',
  minibarNeedsRoom: 'Проверка минибара возможна только для задачи по номеру',
  photoRequired: 'Для завершения ремонта нужна фотография результата',
  move: (from: string, to: string) => `Недопустимый переход статуса: ${from} → ${to}`,
};

/** Who works a category of task; automatic assignment draws from active staff of that role. */
const WORKER_ROLE: Record<TaskCategory, Role> = { housekeeping: 'housekeeper', maintenance: 'technician' };

/** Housekeepers and technicians see and act on their own tasks and the open ones of their trade; others on all. */
function visibilityOf(actor: AccessTokenPayload): TaskVisibility | undefined {
  if (actor.role === 'housekeeper') return { ownerId: actor.sub, category: 'housekeeping' };
  if (actor.role === 'technician') return { ownerId: actor.sub, category: 'maintenance' };
  return undefined;
}

function visibleTo(task: HousekeepingTask, scope: TaskVisibility | undefined): boolean {
  if (!scope) return true;
  return (
    task.assignee_id === scope.ownerId ||
    task.created_by === scope.ownerId ||
    (task.assignee_id === null && task.category === scope.category)
  );
}

const DAY_MS = 24 * 3600 * 1000;

export interface HousekeepingDependencies {
  hotels: Pick<HotelsService, 'find'>;
  rooms: Pick<RoomsService, 'findRoom' | 'updateState'>;
  uploads: Pick<UploadsService, 'assertOwnUploads'>;
  minibar: Pick<MinibarService, 'hasActiveItems' | 'recordCheck' | 'consumptionsForTask'>;
}

export function createHousekeepingService(db: Db, { hotels, rooms, uploads, minibar }: HousekeepingDependencies) {
  async function findVisible(conn: DbOrTrx, hotelId: string, id: string, actor: AccessTokenPayload, forUpdate = false) {
    const task = await tasksRepository.find(conn, hotelId, id, { forUpdate });
    if (!task || !visibleTo(task, visibilityOf(actor))) throw new NotFoundError(housekeepingMessages.taskNotFound);
    return task;
  }

  async function assertAssignee(conn: DbOrTrx, hotelId: string, assigneeId: string | null | undefined) {
    if (!assigneeId) return;
    const member = await tasksRepository.staffMember(conn, hotelId, assigneeId);
    if (!member?.active) {
      throw new ValidationError(housekeepingMessages.assigneeInvalid, [
        { path: 'body.assignee_id', message: housekeepingMessages.assigneeInvalid },
      ]);
    }
  }

  /** The assignee by the hotel's strategy; the settings row (locked by the caller) remembers the previous pick. */
  async function autoAssignee(conn: DbOrTrx, hotelId: string, category: TaskCategory, settings: HousekeepingSettings) {
    if (!settings.auto_assign_strategy) return undefined;
    const candidates = await tasksRepository.candidates(conn, hotelId, WORKER_ROLE[category]);
    const cursor = category === 'housekeeping' ? 'last_auto_housekeeping_id' : 'last_auto_maintenance_id';
    const picked = pickAssignee(settings.auto_assign_strategy, candidates, settings[cursor]);
    if (picked) await housekeepingSettingsRepository.update(conn, hotelId, { [cursor]: picked });
    return picked;
  }

  /**
   * Creates a task with its checklist, assigning it by the hotel's strategy when nobody is named. An urgent repair
   * in a room closes the room from now for `emergency_close_days`.
   */
  async function insertTask(
    trx: DbOrTrx,
    hotelId: string,
    input: NewTaskInput & { source?: HousekeepingTask['source']; booking_id?: string | null },
    createdBy: string | null,
  ): Promise<HousekeepingTask> {
    const room = input.room_id ? await rooms.findRoom(hotelId, input.room_id, trx) : undefined;
    if (input.room_id && !room) {
      throw new ValidationError(housekeepingMessages.roomNotFound, [
        { path: 'body.room_id', message: housekeepingMessages.roomNotFound },
      ]);
    }
    await assertAssignee(trx, hotelId, input.assignee_id);
    // Locking the settings row serializes automatic assignment, so two new tasks never both go to "the next" person.
    const settings = await housekeepingSettingsRepository.get(trx, hotelId, { forUpdate: true });
    const picked = input.assignee_id ? undefined : await autoAssignee(trx, hotelId, input.category, settings);
    const task = await tasksRepository.insert(trx, hotelId, {
      room_id: room?.id ?? null,
      category: input.category,
      priority: input.priority ?? 'medium',
      assignee_id: input.assignee_id ?? picked ?? null,
      auto_assigned: picked !== undefined,
      source: input.source ?? 'manual',
      booking_id: input.booking_id ?? null,
      notes: input.notes ?? '',
      photos: input.photos ?? [],
      requires_minibar_check: input.requires_minibar_check ?? false,
      created_by: createdBy,
    });
    await checklistRepository.copyTemplate(trx, hotelId, task.id, task.category, room?.category_id ?? null);
    if (room && task.category === 'maintenance' && task.priority === 'urgent') {
      const now = Date.now();
      await rooms.updateState(trx, hotelId, room.id, {
        status: 'maintenance',
        maintenance_from: new Date(now),
        maintenance_to: new Date(now + settings.emergency_close_days * DAY_MS),
      });
    }
    await taskCreated.publish(trx, hotelId, {
      task_id: task.id,
      room_id: task.room_id,
      category: task.category,
      priority: task.priority,
      status: task.status,
      assignee_id: task.assignee_id,
    });
    return task;
  }

  /** Every reason the task cannot be completed yet; empty when it can. */
  async function completionProblems(trx: DbOrTrx, hotelId: string, task: HousekeepingTask, changes: TaskChanges) {
    const problems: string[] = [];
    const open = (await checklistRepository.itemsForTask(trx, hotelId, task.id)).filter((item) => !item.completed_at);
    if (open.length > 0) problems.push(housekeepingMessages.checklistIncomplete(open.map((item) => item.text)));
    if (task.requires_minibar_check && !task.minibar_checked_at) problems.push(housekeepingMessages.minibarIncomplete);
    const category = changes.category ?? task.category;
    if (category === 'maintenance') {
      const settings = await housekeepingSettingsRepository.get(trx, hotelId);
      const photos = changes.resolution_photos ?? task.resolution_photos;
      if (settings.require_completion_photo && photos.length === 0) problems.push(housekeepingMessages.photoRequired);
    }
    return problems;
  }

  function timestampsFor(task: HousekeepingTask, to: HousekeepingTask['status']): Partial<HousekeepingTask> {
    const now = new Date();
    if (to === 'in_progress') return { started_at: task.started_at ?? now, completed_at: null };
    if (to === 'done') return { started_at: task.started_at ?? now, completed_at: now };
    return {};
  }

  async function applyRoomEffect(trx: DbOrTrx, hotelId: string, before: HousekeepingTask, after: HousekeepingTask) {
    if (!after.room_id) return undefined;
    const room = await rooms.findRoom(hotelId, after.room_id, trx);
    if (!room) return undefined;
    const settings = await housekeepingSettingsRepository.get(trx, hotelId);
    const status = roomStatusAfter(after, before.status, after.status, room, settings.inspection_after_clean);
    if (!status) return room.status;
    // Finished repairs reopen the room now, whether it showed `maintenance` or, while they went on, `cleaning`.
    const endsClosure = after.category === 'maintenance' && after.status === 'done' && status === 'dirty';
    const updated = await rooms.updateState(trx, hotelId, room.id, {
      status,
      ...(endsClosure && room.maintenance_to && room.maintenance_to > new Date() && { maintenance_to: new Date() }),
    });
    return updated.status;
  }

  return {
    getSettings: (hotelId: string) => housekeepingSettingsRepository.get(db, hotelId),

    async updateSettings(hotelId: string, changes: SettingsChanges, expected?: ExpectedVersion) {
      await housekeepingSettingsRepository.update(db, hotelId, changes, expected);
      return housekeepingSettingsRepository.get(db, hotelId);
    },

    async list(hotelId: string, { limit, cursor, ...filter }: TaskFilter & PageRequest, actor: AccessTokenPayload) {
      const hotel = await hotels.find(hotelId);
      const filters = { ...filter, timeZone: hotel!.timezone };
      return tasksRepository.list(db, hotelId, filters, { limit, cursor }, visibilityOf(actor));
    },

    async get(hotelId: string, id: string, actor: AccessTokenPayload) {
      const task = await findVisible(db, hotelId, id, actor);
      return { ...task, checklist: await checklistRepository.itemsForTask(db, hotelId, id) };
    },

    async create(hotelId: string, input: NewTaskInput, actor: AccessTokenPayload) {
      await uploads.assertOwnUploads(hotelId, input.photos, 'photos');
      return db.transaction((trx) => insertTask(trx, hotelId, input, actor.sub));
    },

    /** Status moves, reassignment and resolution; the room board follows in the same transaction. */
    async update(
      hotelId: string,
      id: string,
      changes: TaskChanges,
      actor: AccessTokenPayload,
      expected?: ExpectedVersion,
    ) {
      await uploads.assertOwnUploads(hotelId, changes.photos, 'photos');
      await uploads.assertOwnUploads(hotelId, changes.resolution_photos, 'resolution_photos');
      return db.transaction(async (trx) => {
        const task = await findVisible(trx, hotelId, id, actor, true);
        assertVersion(expected, task.updated_at);
        const worker = visibilityOf(actor) !== undefined;
        const claims = worker && task.assignee_id === null && changes.status !== undefined;
        if (worker) {
          const reassigns = changes.assignee_id !== undefined && changes.assignee_id !== actor.sub;
          if (reassigns || changes.priority !== undefined || changes.category !== undefined) {
            throw new ForbiddenError(housekeepingMessages.workerFields);
          }
        }
        await assertAssignee(trx, hotelId, changes.assignee_id);
        const to = changes.status ?? task.status;
        if (!canMove(task.status, to)) throw new BusinessRuleError(housekeepingMessages.move(task.status, to));
        if (to === 'done' && task.status !== 'done') {
          const problems = await completionProblems(trx, hotelId, task, changes);
          if (problems.length > 0) throw new BusinessRuleError(housekeepingMessages.cannotComplete, problems);
        }
        const updated = await tasksRepository.update(trx, hotelId, id, {
          ...changes,
          ...(claims && { assignee_id: actor.sub }),
          ...(to !== task.status && timestampsFor(task, to)),
        });
        const roomStatus = await applyRoomEffect(trx, hotelId, task, updated);
        await taskUpdated.publish(trx, hotelId, {
          task_id: id,
          room_id: updated.room_id,
          changes: { ...changes, ...(claims && { assignee_id: actor.sub }) },
        });
        if (to === 'done' && task.status !== 'done') {
          await taskDone.publish(trx, hotelId, {
            task_id: id,
            room_id: updated.room_id,
            room_status: roomStatus ?? null,
          });
        }
        return updated;
      });
    },

    async setChecklistItem(hotelId: string, taskId: string, itemId: string, done: boolean, actor: AccessTokenPayload) {
      return db.transaction(async (trx) => {
        const task = await findVisible(trx, hotelId, taskId, actor, true);
        const item = await checklistRepository.setDone(trx, hotelId, task.id, itemId, done ? actor.sub : null);
        if (!item) throw new NotFoundError(housekeepingMessages.checklistItemNotFound);
        await taskUpdated.publish(trx, hotelId, {
          task_id: task.id,
          room_id: task.room_id,
          changes: { checklist_item_id: item.id, done },
        });
        return item;
      });
    },

    /**
     * The night audit's stayover rooms (guests staying on): each shown clean or awaiting inspection becomes dirty for
     * its daily clean; a room being cleaned, under maintenance or closed stays as it is. Answers the rooms marked.
     */
    async markStayovers(hotelId: string, roomIds: readonly string[]): Promise<number> {
      return transactionWithRetry(db, async (trx) => {
        let marked = 0;
        for (const roomId of roomIds) {
          const room = await rooms.findRoom(hotelId, roomId, trx);
          if (room?.status !== 'clean' && room?.status !== 'inspect') continue;
          await rooms.updateState(trx, hotelId, roomId, { status: 'dirty' });
          marked += 1;
        }
        return marked;
      });
    },

    /**
     * The turnover clean after a check-out (used by bookings, inside their check-out transaction): when the hotel's
     * `checkout_auto` is on, the room becomes `dirty` and a housekeeping task is created with `checkout_priority`.
     */
    async createTurnoverTask(
      trx: DbOrTrx,
      hotelId: string,
      roomId: string,
      bookingId: string | null = null,
    ): Promise<HousekeepingTask | undefined> {
      const settings = await housekeepingSettingsRepository.get(trx, hotelId);
      if (!settings.checkout_auto) return undefined;
      await rooms.updateState(trx, hotelId, roomId, { status: 'dirty' });
      return insertTask(
        trx,
        hotelId,
        {
          room_id: roomId,
          category: 'housekeeping',
          priority: settings.checkout_priority,
          source: 'checkout',
          booking_id: bookingId,
          requires_minibar_check: await minibar.hasActiveItems(hotelId, trx),
        },
        null,
      );
    },

    /**
     * The minibar check of a task: what the guest consumed, replacing any earlier count for this task, so a retried
     * request never counts twice; stock follows the net change. It satisfies the task's minibar requirement.
     */
    async checkMinibar(hotelId: string, id: string, items: MinibarCheckLine[], actor: AccessTokenPayload) {
      return db.transaction(async (trx) => {
        const task = await findVisible(trx, hotelId, id, actor, true);
        if (!task.room_id) throw new BusinessRuleError(housekeepingMessages.minibarNeedsRoom);
        const consumptions = await minibar.recordCheck(trx, hotelId, {
          taskId: task.id,
          roomId: task.room_id,
          bookingId: task.booking_id,
          recordedBy: actor.sub,
          items,
        });
        if (!task.minibar_checked_at)
          await tasksRepository.update(trx, hotelId, id, { minibar_checked_at: new Date() });
        await taskUpdated.publish(trx, hotelId, {
          task_id: id,
          room_id: task.room_id,
          changes: { minibar_checked: true },
        });
        return consumptions;
      });
    },

    async minibarOf(hotelId: string, id: string, actor: AccessTokenPayload) {
      await findVisible(db, hotelId, id, actor);
      return minibar.consumptionsForTask(hotelId, id);
    },
  };
}

export type HousekeepingService = ReturnType<typeof createHousekeepingService>;
