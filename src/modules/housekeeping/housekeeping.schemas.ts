import Joi from 'joi';
import { calendarDate, hotelSlug, photoList } from '../../platform/http/schemas';
import { ASSIGN_STRATEGIES, TASK_CATEGORIES, TASK_PRIORITIES, TASK_STATUSES } from './housekeeping.types';
import { openApiComponent } from '../../platform/http/components';
import { pageQueryKeys } from '../../platform/http/pagination';

const category = Joi.string().valid(...TASK_CATEGORIES);
const priority = Joi.string().valid(...TASK_PRIORITIES);
const status = Joi.string().valid(...TASK_STATUSES);

export const settingsBody = Joi.object({
  checkout_auto: Joi.boolean(),
  checkout_priority: priority,
  inspection_after_clean: Joi.boolean(),
  require_completion_photo: Joi.boolean(),
  emergency_close_days: Joi.number().integer().min(1).max(365),
  auto_assign_strategy: Joi.string()
    .valid(...ASSIGN_STRATEGIES)
    .allow(null),
}).min(1);

export const settingsSchema = Joi.object({
  hotel_id: Joi.string().uuid(),
  checkout_auto: Joi.boolean(),
  checkout_priority: priority,
  inspection_after_clean: Joi.boolean(),
  require_completion_photo: Joi.boolean(),
  emergency_close_days: Joi.number().integer(),
  auto_assign_strategy: Joi.string()
    .valid(...ASSIGN_STRATEGIES)
    .allow(null),
  last_auto_housekeeping_id: Joi.string().uuid().allow(null),
  last_auto_maintenance_id: Joi.string().uuid().allow(null),
  updated_at: Joi.date(),
}).meta(openApiComponent('HousekeepingSettings'));

export const taskListQuery = Joi.object({
  category,
  room_id: Joi.string().uuid(),
  status,
  assignee_id: Joi.string().uuid(),
  priority,
  date: calendarDate,
  ...pageQueryKeys,
});

export const createTaskBody = Joi.object({
  room_id: Joi.string().uuid().allow(null),
  category: category.required(),
  priority,
  assignee_id: Joi.string().uuid().allow(null),
  notes: Joi.string().trim().max(4000).allow(''),
  photos: photoList,
  requires_minibar_check: Joi.boolean(),
});

export const updateTaskBody = Joi.object({
  status,
  assignee_id: Joi.string().uuid().allow(null),
  category,
  priority,
  notes: Joi.string().trim().max(4000).allow(''),
  photos: photoList,
  resolution_notes: Joi.string().trim().max(4000).allow(''),
  resolution_photos: photoList,
}).min(1);

export const checklistItemParams = Joi.object({
  slug: hotelSlug.required(),
  id: Joi.string().uuid().required(),
  itemId: Joi.string().uuid().required(),
});

export const checklistItemBody = Joi.object({ done: Joi.boolean().required() });

const checklistItemSchema = Joi.object({
  id: Joi.string().uuid(),
  task_id: Joi.string().uuid(),
  text: Joi.string(),
  position: Joi.number().integer(),
  completed_at: Joi.date().allow(null),
  completed_by: Joi.string().uuid().allow(null),
}).meta(openApiComponent('ChecklistItem'));

export const taskSchema = Joi.object({
  id: Joi.string().uuid(),
  hotel_id: Joi.string().uuid(),
  room_id: Joi.string().uuid().allow(null),
  category,
  priority,
  status,
  assignee_id: Joi.string().uuid().allow(null),
  auto_assigned: Joi.boolean(),
  source: Joi.string().valid('manual', 'checkout'),
  booking_id: Joi.string().uuid().allow(null),
  notes: Joi.string().allow(''),
  photos: Joi.array().items(Joi.string()),
  resolution_notes: Joi.string().allow(''),
  resolution_photos: Joi.array().items(Joi.string()),
  requires_minibar_check: Joi.boolean(),
  minibar_checked_at: Joi.date().allow(null),
  created_by: Joi.string().uuid().allow(null),
  started_at: Joi.date().allow(null),
  completed_at: Joi.date().allow(null),
  created_at: Joi.date(),
  updated_at: Joi.date(),
  checklist: Joi.array().items(checklistItemSchema).optional().description('Only when one task is read'),
}).meta(openApiComponent('HousekeepingTask'));

export { checklistItemSchema };

const templateFields = {
  name: Joi.string().trim().min(1).max(100),
  task_category: category,
  room_category_id: Joi.string().uuid().allow(null),
  is_active: Joi.boolean(),
  items: Joi.array().items(Joi.string().trim().min(1).max(300)).max(100),
};

export const createTemplateBody = Joi.object({
  ...templateFields,
  name: templateFields.name.required(),
  task_category: templateFields.task_category.required(),
  items: templateFields.items.required(),
});
export const updateTemplateBody = Joi.object(templateFields).min(1);
export const templateListQuery = Joi.object({ task_category: category });

export const templateSchema = Joi.object({
  id: Joi.string().uuid(),
  hotel_id: Joi.string().uuid(),
  name: Joi.string(),
  task_category: category,
  room_category_id: Joi.string().uuid().allow(null),
  is_active: Joi.boolean(),
  items: Joi.array().items(Joi.string()),
  created_at: Joi.date(),
  updated_at: Joi.date(),
}).meta(openApiComponent('ChecklistTemplate'));
