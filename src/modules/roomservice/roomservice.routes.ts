import type { Request } from 'express';
import Joi from 'joi';
import type { PageRequest } from '../../platform/db/keyset';
import { crudRoutes } from '../../platform/http/crud';
import { answersNewSecret, idempotencyKeyHeader } from '../../platform/http/idempotency-key';
import { PAGE_HEADERS, sendPage } from '../../platform/http/pagination';
import { settingsRoutes } from '../../platform/http/settings-routes';
import { defineHotelRoute, defineRoute, type OneAnswer, type RouteDefinition } from '../../platform/http/route';
import { HOTEL_MANAGEMENT, type Role } from '../../platform/http/roles';
import { idParams, slugParams } from '../../platform/http/schemas';
import { NotFoundError } from '../../platform/errors';
import { notAuthorized, roomServiceMessages } from './roomservice.messages';
import {
  categorySchema,
  createCategoryBody,
  createItemBody,
  deskOrderBody,
  guestConfigSchema,
  itemListQuery,
  itemSchema,
  orderBody,
  orderListQuery,
  orderSchema,
  orderTokenHeaders,
  placedOrderSchema,
  proofHeaders,
  publicOrderParams,
  publicParams,
  settingsChanges,
  settingsSchema,
  statusBody,
  stayCodeSchema,
  stayParams,
  updateCategoryBody,
  updateItemBody,
} from './roomservice.schemas';
import type { RoomServiceService } from './roomservice.service';
import type { GuestCaller } from './roomservice.stays';
import type { NewOrder, OrderFilter, RoomServiceSettingsChanges, StatusMove, StayProof } from './roomservice.types';

/** The desk takes the orders, hands out the stays' codes and reads the menu it answers guests about. */
const DESK: readonly Role[] = ['hotel_admin', 'manager', 'receptionist'];

const base = '/api/hotels/:slug/room-service';
const guestBase = '/api/hotels/:slug/room-service/guest';
const tags = ['Room service'];

/**
 * Per caller address (a hotel's guests often share one, the hotel's Wi-Fi): reads counted in this process, orders in
 * the shared store. Wrong stay proofs have their own, much smaller budgets.
 */
const GUEST_LIMITS = {
  config: { scope: 'room_service.config', perAddress: { quota: 300, windowSeconds: 60 }, store: 'local' as const },
  status: { scope: 'room_service.status', perAddress: { quota: 600, windowSeconds: 60 }, store: 'local' as const },
  // The configured budget per address (`RATE_LIMIT_*`), as for sign-ins.
  place: { scope: 'room_service.place' },
};

const proofDescription =
  'The guest proves their stay with `X-Room` (the room number, percent-encoded) and `X-Stay-Code` (the 8-digit code ' +
  'staff give with the key card): accepted only for a stay checked in and under way now in that room. Anything else ' +
  '(no such room or hotel, nobody in house, a wrong code or another stay’s) is one 403 `room_service_not_authorized`; ' +
  'wrong proofs are limited to 100 per caller address in 15 minutes and 5 per room in an hour (then 429 with ' +
  '`Retry-After`, even for a right one).';

const refusedProof = {
  403: { description: 'Stay not proven (`room_service_not_authorized`): one answer for every reason' },
  429: { description: 'Too many wrong proofs for the room or from the address, or too many requests (`Retry-After`)' },
};

/** A malformed slug, room or code is refused as a wrong one is. */
const proofRefusal: OneAnswer = { refusal: notAuthorized, inputs: ['params', 'headers.x-room', 'headers.x-stay-code'] };

/** The stay proof of a guest's request (its headers validated: both present). */
const proofIn = (headers: Record<string, string | undefined>): StayProof => ({
  room: headers['x-room']!,
  code: headers['x-stay-code']!,
});

const callerOf = (req: Request): GuestCaller => ({ address: req.ip ?? 'unknown' });

export function roomServiceRoutes(service: RoomServiceService): RouteDefinition[] {
  return [
    ...settingsRoutes<RoomServiceSettingsChanges>({
      path: `${base}/settings`,
      subject: 'room-service settings',
      tags,
      readers: DESK,
      writers: HOTEL_MANAGEMENT,
      schema: settingsSchema,
      changes: settingsChanges,
      changeDescription:
        '`enabled` (guests may order; off for a new hotel), `opens_at`/`closes_at` (HH:MM in the hotel’s time zone; ' +
        'a closing time before the opening one runs past midnight, equal ones mean around the clock), ' +
        '`delivery_fee` (0 to 100000, added to each order), `minimum_order` (0 to 1000000, the items alone), ' +
        '`room_ids` (at most 1000 rooms of this hotel served; null: every room).',
      refusals: { 400: { description: 'Invalid, or a room that is not this hotel’s' } },
      settings: service.settings,
    }),
    ...crudRoutes({
      basePath: `${base}/menu/categories`,
      noun: 'room-service menu category',
      tags,
      readRoles: DESK,
      writeRoles: HOTEL_MANAGEMENT,
      schemas: { item: categorySchema, create: createCategoryBody, update: updateCategoryBody },
      service: service.menu.categories,
      descriptions: {
        create: '`name` (unique in the hotel, 409) and `sort_order` (the menu lists by it, then by name).',
        remove: 'Refused with 409 while items are in it: move or delete them first.',
      },
      refusals: { remove: { 409: { description: roomServiceMessages.categoryHasItems } } },
    }),
    ...crudRoutes({
      basePath: `${base}/menu/items`,
      noun: 'room-service menu item',
      tags,
      readRoles: DESK,
      writeRoles: HOTEL_MANAGEMENT,
      schemas: { item: itemSchema, create: createItemBody, update: updateItemBody, listQuery: itemListQuery },
      service: service.menu.items,
      descriptions: {
        create:
          '`category_id` (a menu category of this hotel), `name` (unique in its category, 409), `description`, ' +
          '`price` (0.01 to 1000000: what guests are charged), `photo_url` (a file this hotel uploaded), ' +
          '`is_available` (false hides it from guests), `sort_order`.',
        remove: 'Orders placed keep their copy of its name and price.',
      },
      refusals: {
        create: { 400: { description: 'Invalid, or a category or photo that is not this hotel’s' } },
        update: { 400: { description: 'Invalid, or a category or photo that is not this hotel’s' } },
      },
    }),
    defineHotelRoute<unknown, unknown, { bookingId: string }>({
      method: 'get',
      path: `${base}/stays/:bookingId/code`,
      summary: "A stay's room-service code",
      description:
        'The 8-digit code a guest orders to their room with (with its number): made on the first ask and the same ' +
        'afterwards, to print on the key-card sleeve or show on the TV. For a stay to come or under way; a cancelled ' +
        'or checked-out one is refused (422 `room_service_stay_closed`). Guests can use it only while checked in.',
      tags,
      access: { kind: 'hotel', roles: DESK },
      request: { params: stayParams },
      responses: {
        200: { description: 'The code', schema: stayCodeSchema },
        404: { description: 'No such booking in this hotel' },
        422: { description: roomServiceMessages.stayClosed },
      },
      async handler({ hotel, params, res }) {
        res.json(await service.stays.code(hotel.id, params.bookingId));
      },
    }),
    defineHotelRoute<unknown, unknown, { bookingId: string }>({
      method: 'post',
      path: `${base}/stays/:bookingId/code`,
      summary: "Replace a stay's room-service code",
      idempotency: answersNewSecret,
      description: 'A new code for the stay (a lost sleeve): the one before stops working at once.',
      tags,
      access: { kind: 'hotel', roles: DESK },
      request: { params: stayParams },
      responses: {
        201: { description: 'The new code', schema: stayCodeSchema },
        404: { description: 'No such booking in this hotel' },
        422: { description: roomServiceMessages.stayClosed },
      },
      async handler({ hotel, params, res }) {
        res.status(201).json(await service.stays.newCode(hotel.id, params.bookingId));
      },
    }),
    defineHotelRoute<unknown, OrderFilter & PageRequest>({
      method: 'get',
      path: `${base}/orders`,
      summary: 'List room-service orders',
      description:
        'Newest first, with their lines. Filters: `status`, `room_id`, `booking_id`, and `from`/`to` (days of ' +
        '`created_at` in the hotel’s time zone, both inclusive, at most 366 days apart). Staff apps poll it every 30 s ' +
        'and reload on `room_service_order_created` / `room_service_order_updated`.',
      tags,
      access: { kind: 'hotel', roles: DESK },
      request: { params: slugParams, query: orderListQuery },
      responses: {
        200: { description: 'Orders', schema: Joi.array().items(orderSchema), headers: PAGE_HEADERS },
      },
      async handler({ hotel, query, res }) {
        sendPage(res, await service.orders.list(hotel.id, query));
      },
    }),
    defineHotelRoute<NewOrder & { booking_id: string }>({
      method: 'post',
      path: `${base}/orders`,
      summary: 'Take a room-service order for a stay (desk)',
      description:
        'A guest calling the desk: `booking_id` (a stay in house now, checked in and within its dates, as read in ' +
        'the order’s transaction: else 422 `room_service_stay_not_in_house`), `items` and `note` as a guest orders ' +
        'them, priced from the menu under the same rules (on, open, room served, items available, minimum). ' +
        '`Idempotency-Key` makes a retry safe. Answers the order, with no status token.',
      tags,
      access: { kind: 'hotel', roles: DESK },
      request: { params: slugParams, body: deskOrderBody, headers: idempotencyKeyHeader },
      responses: {
        201: { description: 'Placed', schema: orderSchema },
        400: { description: 'Invalid, or no such booking in this hotel' },
        422: { description: 'Refused by the hotel’s room-service rules, or the stay is not in house' },
      },
      async handler({ hotel, body, headers, res }) {
        const placed = await service.orders.place(hotel.id, body, headers['idempotency-key']);
        res.status(placed.status).json(placed.body);
      },
    }),
    defineHotelRoute<unknown, unknown, { id: string }>({
      method: 'get',
      path: `${base}/orders/:id`,
      summary: 'Read a room-service order',
      tags,
      access: { kind: 'hotel', roles: DESK },
      request: { params: idParams },
      responses: { 200: { description: 'The order', schema: orderSchema }, 404: { description: 'No such order' } },
      async handler({ hotel, params, res }) {
        res.json(await service.orders.get(hotel.id, params.id));
      },
    }),
    defineHotelRoute<StatusMove, unknown, { id: string }>({
      method: 'post',
      path: `${base}/orders/:id/status`,
      summary: 'Move a room-service order on',
      description:
        'new → accepted → preparing → delivered, one step at a time, or `cancelled` (with a `reason`) from any of the ' +
        'first three, or `refunded` (with a `reason`) once delivered: a negative bill line of the same total, once. ' +
        'Cancelled and refunded are final. Any other move is 409 `room_service_illegal_move`. ' +
        '`delivered` bills the order’s total (items and delivery fee) to the stay in the same transaction: a line of ' +
        'the booking’s charges, in its balance, also when the stay has checked out since the order (the food was ' +
        'eaten; only a cancelled booking refuses it). Each move is a `room_service_order_updated` event.',
      tags,
      access: { kind: 'hotel', roles: DESK },
      request: { params: idParams, body: statusBody },
      responses: {
        200: { description: 'The order', schema: orderSchema },
        404: { description: 'No such order' },
        409: { description: 'Not a move from the order’s status (`room_service_illegal_move`)' },
        422: { description: 'The stay cannot be billed (`booking_closed`: a cancelled booking)' },
      },
      async handler({ hotel, params, body, res }) {
        res.json(await service.orders.move(hotel.id, params.id, body));
      },
    }),

    defineRoute<unknown, unknown, { slug: string }>({
      method: 'get',
      path: `${guestBase}/config`,
      summary: "Room service for the guest's room (guest)",
      description:
        `${proofDescription} Answers whether room service is on and open now, its hours (in \`time_zone\`), fee, ` +
        'minimum, whether it serves the room, and the menu of available items by category.',
      tags,
      access: { kind: 'public' },
      rateLimit: GUEST_LIMITS.config,
      oneAnswer: proofRefusal,
      request: { params: publicParams, headers: proofHeaders },
      responses: { 200: { description: 'Room service for the room', schema: guestConfigSchema }, ...refusedProof },
      async handler({ params, headers, req, res }) {
        res.json(await service.guest.config(params.slug, proofIn(headers), callerOf(req)));
      },
    }),
    defineRoute<NewOrder, unknown, { slug: string }>({
      method: 'post',
      path: `${guestBase}/orders`,
      summary: 'Order to the room (guest)',
      description:
        `${proofDescription} \`items\` (1 to 50 menu items by id, each once, 1 to 50 of each) and a \`note\`. Priced ` +
        'by the server from the menu (a price sent is ignored): the items, plus the delivery fee. Refused (422) when ' +
        'room service is off (`room_service_disabled`), closed now (`room_service_closed`), does not serve the room ' +
        '(`room_service_room_not_served`), an item is unknown or unavailable (`room_service_item_unavailable`, ' +
        '`errors` lists them), or the items cost less than the minimum (`room_service_below_minimum`). The stay is ' +
        'read again in the order’s transaction: checked out (or moved to another room) since the proof, it is the ' +
        'same 403. Answers the order and its `status_token`. `Idempotency-Key` makes a retry safe (the same order ' +
        'and token again).',
      tags,
      access: { kind: 'public' },
      rateLimit: GUEST_LIMITS.place,
      oneAnswer: proofRefusal,
      request: { params: publicParams, headers: proofHeaders.concat(idempotencyKeyHeader), body: orderBody },
      responses: {
        201: { description: 'Placed', schema: placedOrderSchema },
        ...refusedProof,
        422: { description: 'Refused by the hotel’s room-service rules' },
      },
      async handler({ params, headers, body, req, res }) {
        const key = headers['idempotency-key'];
        const placed = await service.guest.place(params.slug, proofIn(headers), body, callerOf(req), key);
        res.status(placed.status).json(placed.body);
      },
    }),
    defineRoute<unknown, unknown, { slug: string }>({
      method: 'get',
      path: `${guestBase}/orders`,
      summary: "The stay's orders (guest)",
      description: `${proofDescription} The proven stay's orders, newest first (the latest 50), with their status.`,
      tags,
      access: { kind: 'public' },
      rateLimit: GUEST_LIMITS.config,
      oneAnswer: proofRefusal,
      request: { params: publicParams, headers: proofHeaders },
      responses: { 200: { description: 'Orders', schema: Joi.array().items(orderSchema) }, ...refusedProof },
      async handler({ params, headers, req, res }) {
        res.json(await service.guest.stayOrders(params.slug, proofIn(headers), callerOf(req)));
      },
    }),
    defineRoute<unknown, unknown, { slug: string; id: string }>({
      method: 'get',
      path: `${guestBase}/orders/:id`,
      summary: "An order's status (guest)",
      description:
        'With `X-Order-Token` (the `status_token` answered at placing): the order, its lines and status. Guests poll ' +
        'it every 15 s. Any other token, order or hotel is one 404.',
      tags,
      access: { kind: 'public' },
      rateLimit: GUEST_LIMITS.status,
      oneAnswer: {
        refusal: () => new NotFoundError(roomServiceMessages.orderNotFound),
        inputs: ['params', 'headers.x-order-token'],
      },
      request: { params: publicOrderParams, headers: orderTokenHeaders },
      responses: {
        200: { description: 'The order', schema: orderSchema },
        404: { description: 'No such order for this token' },
        429: { description: 'Too many requests (`Retry-After`)' },
      },
      async handler({ params, headers, res }) {
        res.json(await service.guest.order(params.slug, params.id, headers['x-order-token']!));
      },
    }),
  ];
}
