import Joi from 'joi';
import type { PageRequest } from '../../platform/db/keyset';
import { crudRoutes } from '../../platform/http/crud';
import { PAGE_HEADERS, sendPage } from '../../platform/http/pagination';
import { defineHotelRoute, type RouteDefinition } from '../../platform/http/route';
import { ALL_STAFF, HOTEL_MANAGEMENT, type Role } from '../../platform/http/roles';
import { idParams, slugParams } from '../../platform/http/schemas';
import { consumptionSchema, minibarCheckItems, type MinibarCheckLine } from '../minibar';
import {
  checklistItemBody,
  checklistItemParams,
  checklistItemSchema,
  createTaskBody,
  createTemplateBody,
  settingsBody,
  settingsSchema,
  taskListQuery,
  taskSchema,
  templateListQuery,
  templateSchema,
  updateTaskBody,
  updateTemplateBody,
} from './housekeeping.schemas';
import type { HousekeepingService } from './housekeeping.service';
import type { ChecklistTemplates } from './housekeeping.templates';
import type { NewTaskInput, SettingsChanges, TaskChanges, TaskFilter } from './housekeeping.types';

/** Who works with tasks: the desk and management see all; housekeepers and technicians their own trade's. */
const TASK_ROLES: readonly Role[] = ['hotel_admin', 'manager', 'receptionist', 'housekeeper', 'technician'];
/** Security staff may also report a problem. */
const TASK_CREATE_ROLES: readonly Role[] = [...TASK_ROLES, 'security'];

const tags = ['Housekeeping'];

export function housekeepingRoutes(
  housekeeping: HousekeepingService,
  templates: ChecklistTemplates,
): RouteDefinition[] {
  return [
    defineHotelRoute({
      method: 'get',
      path: '/api/hotels/:slug/housekeeping-settings',
      summary: 'Read the housekeeping settings',
      tags,
      access: { kind: 'hotel', roles: ALL_STAFF },
      concurrency: 'if-match',
      request: { params: slugParams },
      responses: { 200: { description: 'The settings', schema: settingsSchema } },
      async handler({ hotel, res }) {
        res.json(await housekeeping.getSettings(hotel.id));
      },
    }),
    defineHotelRoute<SettingsChanges>({
      method: 'patch',
      path: '/api/hotels/:slug/housekeeping-settings',
      summary: 'Update the housekeeping settings',
      description:
        '`auto_assign_strategy` (null = off) picks the assignee of a new task without one among active staff of the ' +
        "task's trade (housekeepers for housekeeping, technicians for maintenance), ordered by name: `round_robin` " +
        'the one after the previous automatic pick, `least_loaded` the one with the fewest open tasks, `first_free` ' +
        'the first with no open task (else the least loaded).',
      tags,
      access: { kind: 'hotel', roles: HOTEL_MANAGEMENT },
      concurrency: 'if-match',
      request: { params: slugParams, body: settingsBody },
      responses: { 200: { description: 'The settings', schema: settingsSchema } },
      async handler({ hotel, body, expectedVersion, res }) {
        res.json(await housekeeping.updateSettings(hotel.id, body, expectedVersion));
      },
    }),
    defineHotelRoute<unknown, TaskFilter & PageRequest>({
      method: 'get',
      path: '/api/hotels/:slug/housekeeping',
      summary: 'List tasks',
      description:
        'Urgent first, then oldest. Housekeepers see their own tasks and unassigned housekeeping tasks; technicians ' +
        'their own and unassigned maintenance tasks; the desk and management see all. `date` is a hotel-local day.',
      tags,
      access: { kind: 'hotel', roles: TASK_ROLES },
      request: { params: slugParams, query: taskListQuery },
      responses: { 200: { description: 'Tasks', schema: Joi.array().items(taskSchema), headers: PAGE_HEADERS } },
      async handler({ hotel, query, auth, res }) {
        sendPage(res, await housekeeping.list(hotel.id, query, auth));
      },
    }),
    defineHotelRoute<NewTaskInput>({
      method: 'post',
      path: '/api/hotels/:slug/housekeeping',
      summary: 'Create a task',
      description:
        'Gets the matching checklist template and, without `assignee_id`, an assignee by the hotel strategy. An ' +
        '`urgent` `maintenance` task for a room closes the room (`maintenance`) from now for `emergency_close_days`.',
      tags,
      access: { kind: 'hotel', roles: TASK_CREATE_ROLES },
      request: { params: slugParams, body: createTaskBody },
      responses: { 201: { description: 'Created', schema: taskSchema } },
      async handler({ hotel, body, auth, res }) {
        res.status(201).json(await housekeeping.create(hotel.id, body, auth));
      },
    }),
    defineHotelRoute<unknown, unknown, { id: string }>({
      method: 'get',
      path: '/api/hotels/:slug/housekeeping/:id',
      summary: 'Read a task with its checklist',
      tags,
      access: { kind: 'hotel', roles: TASK_ROLES },
      concurrency: 'if-match',
      request: { params: idParams },
      responses: {
        200: { description: 'The task', schema: taskSchema },
        404: { description: 'No such task visible to you' },
      },
      async handler({ hotel, params, auth, res }) {
        res.json(await housekeeping.get(hotel.id, params.id, auth));
      },
    }),
    defineHotelRoute<TaskChanges, unknown, { id: string }>({
      method: 'patch',
      path: '/api/hotels/:slug/housekeeping/:id',
      summary: 'Update a task',
      description:
        'Statuses: `pending` → `in_progress` | `done` | `cancelled`; `in_progress` → `pending` | `done` | `cancelled`; ' +
        '`done` and `cancelled` are final (422 otherwise). A housekeeping task `in_progress` shows its room as ' +
        '`cleaning`; `done` makes it `inspect` (with `inspection_after_clean`) or `clean`; leaving a clean unfinished ' +
        'makes it `dirty`. A finished repair makes a room closed for maintenance `dirty`. Completion is refused (422, ' +
        '`errors` lists why) while checklist items or a required minibar check are open, or for a maintenance task ' +
        'without `resolution_photos` when `require_completion_photo` is on. Housekeepers and technicians change only ' +
        'status, notes and photos of their tasks; starting an unassigned one takes it.',
      tags,
      access: { kind: 'hotel', roles: TASK_ROLES },
      concurrency: 'if-match',
      request: { params: idParams, body: updateTaskBody },
      responses: {
        200: { description: 'The task', schema: taskSchema },
        404: { description: 'No such task visible to you' },
        422: { description: 'An illegal move, or completion refused with `errors`' },
      },
      async handler({ hotel, params, body, auth, expectedVersion, res }) {
        res.json(await housekeeping.update(hotel.id, params.id, body, auth, expectedVersion));
      },
    }),
    defineHotelRoute<{ done: boolean }, unknown, { id: string; itemId: string }>({
      method: 'patch',
      path: '/api/hotels/:slug/housekeeping/:id/checklist/:itemId',
      summary: 'Tick or untick a checklist item',
      description: 'Records who completed it and when.',
      tags,
      access: { kind: 'hotel', roles: TASK_ROLES },
      request: { params: checklistItemParams, body: checklistItemBody },
      responses: {
        200: { description: 'The item', schema: checklistItemSchema },
        404: { description: 'No such item' },
      },
      async handler({ hotel, params, body, auth, res }) {
        res.json(await housekeeping.setChecklistItem(hotel.id, params.id, params.itemId, body.done, auth));
      },
    }),
    defineHotelRoute<{ items: MinibarCheckLine[] }, unknown, { id: string }>({
      method: 'put',
      path: '/api/hotels/:slug/housekeeping/:id/minibar',
      summary: 'Record the minibar check of a task',
      description:
        'What the guest consumed, per item. The call replaces the earlier count of this task (idempotent: a retried ' +
        'request changes nothing); prices are frozen when a consumption is first recorded; stock follows the net ' +
        "change. It completes the task's minibar requirement (turnover cleans require it when the hotel sells minibar items).",
      tags,
      access: { kind: 'hotel', roles: TASK_ROLES },
      request: { params: idParams, body: Joi.object({ items: minibarCheckItems.required() }) },
      responses: {
        200: {
          description: 'The consumptions recorded for the task',
          schema: Joi.array().items(consumptionSchema),
        },
        404: { description: 'No such task visible to you' },
        422: { description: 'The task has no room' },
      },
      async handler({ hotel, params, body, auth, res }) {
        res.json(await housekeeping.checkMinibar(hotel.id, params.id, body.items, auth));
      },
    }),
    defineHotelRoute<unknown, unknown, { id: string }>({
      method: 'get',
      path: '/api/hotels/:slug/housekeeping/:id/minibar',
      summary: 'The minibar consumptions recorded for a task',
      tags,
      access: { kind: 'hotel', roles: TASK_ROLES },
      request: { params: idParams },
      responses: { 200: { description: 'Consumptions', schema: Joi.array().items(consumptionSchema) } },
      async handler({ hotel, params, auth, res }) {
        res.json(await housekeeping.minibarOf(hotel.id, params.id, auth));
      },
    }),
    ...crudRoutes({
      basePath: '/api/hotels/:slug/checklist-templates',
      noun: 'checklist template',
      tags,
      readRoles: ALL_STAFF,
      writeRoles: HOTEL_MANAGEMENT,
      schemas: {
        item: templateSchema,
        create: createTemplateBody,
        update: updateTemplateBody,
        listQuery: templateListQuery,
      },
      service: templates,
      descriptions: {
        create:
          "Items are copied onto each new task of `task_category` (a template for the room's `room_category_id` wins " +
          'over a general one); editing a template does not change existing tasks.',
      },
    }),
  ];
}
