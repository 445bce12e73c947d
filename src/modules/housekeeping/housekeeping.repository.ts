import { hotelTable } from '../../platform/db/hotel-table';
import { pageOf, type Page, type PageRequest, type SortKey } from '../../platform/db/keyset';
import type { DbOrTrx } from '../../platform/db/knex';
import { settingsTable } from '../../platform/db/settings-table';
import type { AssignCandidate } from './housekeeping.rules';
import type {
  ChecklistItem,
  HousekeepingSettings,
  HousekeepingTask,
  TaskCategory,
  TaskFilter,
} from './housekeeping.types';

export const housekeepingSettingsRepository = settingsTable<HousekeepingSettings>('housekeeping_settings');

export interface TaskVisibility {
  /** Only tasks assigned to this user, unassigned tasks of `category`, or tasks the user created. */
  ownerId: string;
  category: TaskCategory;
}

/** Urgent first, then oldest. */
const TASK_ORDER: SortKey[] = [
  { sql: "CASE priority WHEN 'urgent' THEN 0 WHEN 'medium' THEN 1 ELSE 2 END", type: 'integer' },
  { sql: 'created_at', type: 'timestamptz' },
  { sql: 'id', type: 'uuid' },
];

export const tasksRepository = {
  async list(
    db: DbOrTrx,
    hotelId: string,
    filter: TaskFilter & { timeZone: string },
    page: PageRequest,
    visibility?: TaskVisibility,
  ): Promise<Page<HousekeepingTask>> {
    const query = db('housekeeping_tasks').select('*').where({ hotel_id: hotelId });
    for (const field of ['category', 'room_id', 'status', 'assignee_id', 'priority'] as const) {
      if (filter[field]) query.where(field, filter[field]);
    }
    if (filter.date) query.whereRaw('(created_at AT TIME ZONE ?)::date = ?::date', [filter.timeZone, filter.date]);
    if (visibility) {
      query.where((mine) =>
        mine
          .where('assignee_id', visibility.ownerId)
          .orWhere('created_by', visibility.ownerId)
          .orWhere((open) => open.whereNull('assignee_id').where('category', visibility.category)),
      );
    }
    return pageOf(db, query, TASK_ORDER, page);
  },

  async find(db: DbOrTrx, hotelId: string, id: string, options: { forUpdate?: boolean } = {}) {
    const query = db<HousekeepingTask>('housekeeping_tasks').where({ hotel_id: hotelId, id }).first();
    if (options.forUpdate) query.forUpdate();
    return query as Promise<HousekeepingTask | undefined>;
  },

  async insert(db: DbOrTrx, hotelId: string, task: Partial<HousekeepingTask>): Promise<HousekeepingTask> {
    const [row] = await db<HousekeepingTask>('housekeeping_tasks')
      .insert({ ...task, hotel_id: hotelId })
      .returning('*');
    return row;
  },

  async update(
    db: DbOrTrx,
    hotelId: string,
    id: string,
    changes: Partial<HousekeepingTask>,
  ): Promise<HousekeepingTask> {
    const [row] = await db<HousekeepingTask>('housekeeping_tasks')
      .where({ hotel_id: hotelId, id })
      .update({ ...changes, updated_at: db.fn.now() })
      .returning('*');
    return row;
  },

  /** Active staff of a role with their open task counts, in a stable order (name, then id). */
  async candidates(db: DbOrTrx, hotelId: string, role: string): Promise<AssignCandidate[]> {
    const rows = await db('users as u')
      .leftJoin('housekeeping_tasks as t', (join) =>
        join
          .on('t.assignee_id', 'u.id')
          .andOn('t.hotel_id', 'u.hotel_id')
          .andOnIn('t.status', ['pending', 'in_progress']),
      )
      .where({ 'u.hotel_id': hotelId, 'u.role': role, 'u.active': true })
      .groupBy('u.id', 'u.name')
      .orderBy(['u.name', 'u.id'])
      .select('u.id', db.raw('count(t.id)::int as "openTasks"'));
    return rows as AssignCandidate[];
  },

  async staffMember(db: DbOrTrx, hotelId: string, userId: string) {
    return db('users').where({ hotel_id: hotelId, id: userId }).first('id', 'role', 'active') as Promise<
      { id: string; role: string; active: boolean } | undefined
    >;
  },
};

export const checklistRepository = {
  async itemsForTask(db: DbOrTrx, hotelId: string, taskId: string): Promise<ChecklistItem[]> {
    return db('task_checklist_items')
      .where({ hotel_id: hotelId, task_id: taskId })
      .orderBy('position')
      .select('id', 'task_id', 'text', 'position', 'completed_at', 'completed_by');
  },

  /** Copies the best matching template onto a new task: one for the room's category wins over a general one. */
  async copyTemplate(
    db: DbOrTrx,
    hotelId: string,
    taskId: string,
    category: TaskCategory,
    roomCategoryId: string | null,
  ) {
    const template = await db('checklist_templates')
      .where({ hotel_id: hotelId, task_category: category, is_active: true })
      .where((scope) => scope.whereNull('room_category_id').orWhere('room_category_id', roomCategoryId))
      .orderByRaw('room_category_id IS NULL')
      .orderBy('name')
      .first('id');
    if (!template) return;
    const items = await db('checklist_template_items')
      .where({ hotel_id: hotelId, template_id: template.id })
      .orderBy('position')
      .select('text', 'position');
    if (items.length === 0) return;
    await db('task_checklist_items').insert(items.map((item) => ({ ...item, hotel_id: hotelId, task_id: taskId })));
  },

  async setDone(db: DbOrTrx, hotelId: string, taskId: string, itemId: string, doneBy: string | null) {
    const [row] = await db('task_checklist_items')
      .where({ hotel_id: hotelId, task_id: taskId, id: itemId })
      .update({ completed_at: doneBy ? db.fn.now() : null, completed_by: doneBy })
      .returning(['id', 'task_id', 'text', 'position', 'completed_at', 'completed_by']);
    return row as ChecklistItem | undefined;
  },
};

export interface TemplateRow {
  id: string;
  hotel_id: string;
  name: string;
  task_category: TaskCategory;
  room_category_id: string | null;
  is_active: boolean;
  created_at: Date;
  updated_at: Date;
}

const TEMPLATE_ORDER: SortKey[] = [
  { sql: 'name', type: 'text' },
  { sql: 'id', type: 'uuid' },
];

export const templatesRepository = {
  ...hotelTable<TemplateRow, Partial<TemplateRow>>('checklist_templates'),
  async list(
    db: DbOrTrx,
    hotelId: string,
    filter: { task_category?: TaskCategory },
    page: PageRequest,
  ): Promise<Page<TemplateRow>> {
    const query = db('checklist_templates').select('*').where({ hotel_id: hotelId });
    if (filter.task_category) query.where({ task_category: filter.task_category });
    return pageOf(db, query, TEMPLATE_ORDER, page);
  },
  async items(db: DbOrTrx, hotelId: string, templateIds: string[]): Promise<{ template_id: string; text: string }[]> {
    if (templateIds.length === 0) return [];
    return db('checklist_template_items')
      .where({ hotel_id: hotelId })
      .whereIn('template_id', templateIds)
      .orderBy(['template_id', 'position'])
      .select('template_id', 'text');
  },
  async replaceItems(db: DbOrTrx, hotelId: string, templateId: string, texts: string[]): Promise<void> {
    await db('checklist_template_items').where({ hotel_id: hotelId, template_id: templateId }).delete();
    if (texts.length === 0) return;
    await db('checklist_template_items').insert(
      texts.map((text, position) => ({ hotel_id: hotelId, template_id: templateId, text, position })),
    );
  },
};
