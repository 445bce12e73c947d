import Joi from 'joi';
import type { PageRequest } from '../../platform/db/keyset';
import { crudRoutes } from '../../platform/http/crud';
import { PAGE_HEADERS, pageQueryKeys, sendPage } from '../../platform/http/pagination';
import { slugParams } from '../../platform/http/schemas';
import { defineHotelRoute, type RouteDefinition } from '../../platform/http/route';
import { ALL_STAFF, HOTEL_MANAGEMENT, type Role } from '../../platform/http/roles';
import {
  consumptionListQuery,
  consumptionSchema,
  createItemBody,
  itemListQuery,
  itemSchema,
  movementBody,
  movementListQuery,
  movementSchema,
  postedMovementSchema,
  stockLevelSchema,
  updateItemBody,
} from './minibar.schemas';
import { minibarMessages, type MinibarService } from './minibar.service';
import type { ConsumptionFilter, MinibarItemFilter, MovementFilter, MovementInput } from './minibar.types';

const tags = ['Minibar'];

/** Who receives, writes off and counts stock: management, and housekeepers, who restock the minibars. */
const STOCK_ROLES: readonly Role[] = ['hotel_admin', 'manager', 'housekeeper'];

const dateWindowNote = '`from`/`to` are calendar dates (YYYY-MM-DD) in the hotel time zone, both inclusive.';

export function minibarRoutes(minibar: MinibarService): RouteDefinition[] {
  return [
    ...crudRoutes({
      basePath: '/api/hotels/:slug/minibar-items',
      noun: 'minibar item',
      tags,
      readRoles: ALL_STAFF,
      writeRoles: HOTEL_MANAGEMENT,
      schemas: { item: itemSchema, create: createItemBody, update: updateItemBody, listQuery: itemListQuery },
      service: minibar.items,
      descriptions: {
        create:
          'An item sold from room minibars: `name` (unique in the hotel, 409), `category` (free text, a list filter), ' +
          '`price` (decimal). A price change applies to consumption recorded from then on.',
        remove:
          'Deletes the item and its stock movements. Refused with 409 once consumption has been recorded for it: ' +
          'set `is_active: false` instead (inactive items cannot be recorded in new minibar checks).',
      },
      refusals: { remove: { 409: { description: minibarMessages.itemHasConsumption } } },
    }),
    defineHotelRoute<unknown, MinibarItemFilter & PageRequest>({
      method: 'get',
      path: '/api/hotels/:slug/minibar/stock',
      summary: 'Current minibar stock per item',
      description:
        'The stock of each item is the sum of its movements (0 for an item without any). It may be negative: ' +
        'consumption the guest already had is never refused for lack of stock, and the next inventory count corrects it.',
      tags,
      access: { kind: 'hotel', roles: ALL_STAFF },
      request: { params: slugParams, query: itemListQuery.keys(pageQueryKeys) },
      responses: {
        200: { description: 'Stock per item', schema: Joi.array().items(stockLevelSchema), headers: PAGE_HEADERS },
      },
      async handler({ hotel, query, res }) {
        sendPage(res, await minibar.stock(hotel.id, query));
      },
    }),
    defineHotelRoute<MovementInput>({
      method: 'post',
      path: '/api/hotels/:slug/minibar/stock',
      summary: 'Record a stock movement: receipt, write-off or inventory count',
      description:
        '`receipt` adds `quantity` (> 0); `write_off` subtracts it (> 0); `inventory` sets the stock to the counted ' +
        '`quantity` (>= 0) and records the difference as the movement `quantity`, with `counted_quantity`. ' +
        'Stock may go negative (write-offs are not refused): consumption the guest already had must never be lost, ' +
        'so negative stock is allowed and a count corrects it. Consumption is recorded by minibar checks of ' +
        'housekeeping tasks, not here. Answers the movement and the item’s new stock.',
      tags,
      access: { kind: 'hotel', roles: STOCK_ROLES },
      request: { params: slugParams, body: movementBody },
      responses: {
        201: { description: 'The movement and the new stock', schema: postedMovementSchema },
        400: { description: 'Invalid movement, or no such item in this hotel' },
      },
      async handler({ hotel, auth, body, res }) {
        res.status(201).json(await minibar.postMovement(hotel.id, auth?.sub ?? null, body));
      },
    }),
    defineHotelRoute<unknown, MovementFilter & PageRequest>({
      method: 'get',
      path: '/api/hotels/:slug/minibar/stock/movements',
      summary: 'List stock movements',
      description: `Filters: \`item_id\`, \`kind\`, and the day of \`created_at\`. ${dateWindowNote}`,
      tags,
      access: { kind: 'hotel', roles: ALL_STAFF },
      request: { params: slugParams, query: movementListQuery },
      responses: {
        200: {
          description: 'Movements, newest first',
          schema: Joi.array().items(movementSchema),
          headers: PAGE_HEADERS,
        },
      },
      async handler({ hotel, query, res }) {
        sendPage(res, await minibar.listMovements(hotel.id, query));
      },
    }),
    defineHotelRoute<unknown, ConsumptionFilter & PageRequest>({
      method: 'get',
      path: '/api/hotels/:slug/minibar/consumptions',
      summary: 'List minibar consumption',
      description:
        'Consumption recorded by the minibar checks of housekeeping tasks, one row per task and item, with the price ' +
        `frozen when it was first recorded. Filters: \`room_id\`, \`task_id\`, \`booking_id\`, and the day of ` +
        `\`recorded_at\`. ${dateWindowNote}`,
      tags,
      access: { kind: 'hotel', roles: ALL_STAFF },
      request: { params: slugParams, query: consumptionListQuery },
      responses: {
        200: {
          description: 'Consumption, newest first',
          schema: Joi.array().items(consumptionSchema),
          headers: PAGE_HEADERS,
        },
      },
      async handler({ hotel, query, res }) {
        sendPage(res, await minibar.listConsumptions(hotel.id, query));
      },
    }),
  ];
}
