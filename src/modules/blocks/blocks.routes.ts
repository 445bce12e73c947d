import Joi from 'joi';
import type { PageRequest } from '../../platform/db/keyset';
import { idempotencyKeyHeader } from '../../platform/http/idempotency-key';
import { PAGE_HEADERS, sendPage } from '../../platform/http/pagination';
import { defineHotelRoute, type RouteDefinition } from '../../platform/http/route';
import type { Role } from '../../platform/http/roles';
import { idParams, slugParams } from '../../platform/http/schemas';
import {
  blockListQuery,
  blockSchema,
  blockSummarySchema,
  createBlockBody,
  pickupBody,
  pickupReportSchema,
  pickupResultSchema,
  updateBlockBody,
  washBody,
} from './blocks.schemas';
import { guestsOfRoomingList, MAX_ROOMING_LIST_BYTES, readRoomingList } from './blocks.rooming';
import type { BlocksService } from './blocks.service';
import {
  MAX_PICKUP_GUESTS,
  type AllotmentItem,
  type BlockChanges,
  type BlockInput,
  type BlockStatus,
  type PickupGuest,
} from './blocks.types';

/** As for bookings: those who see them see the blocks; the desk and management write them. */
const BLOCK_READERS: readonly Role[] = ['hotel_admin', 'manager', 'receptionist', 'accountant', 'security'];
const BLOCK_WRITERS: readonly Role[] = ['hotel_admin', 'manager', 'receptionist'];

const tags = ['Blocks'];
type IdParams = { id: string };

const HOLDING =
  '`inquiry` holds nothing; `tentative` and `definite` hold their units: nobody else can book them (staff, the ' +
  "widget), only the block's pickup; `cancelled` is final and holds nothing.";

const PICKUP_REFUSALS =
  'Never more than the block holds on a night, also when pickups race, nor a night it does not hold: 409 ' +
  '`block_overdrawn` names the night; 409 `block_not_holding` for an inquiry or a cancelled block (also one ' +
  'cancelled while the pickup runs). Send `Idempotency-Key` to make retries safe: a retry gets the first answer, ' +
  'also once the block is cancelled.';

const PICKUP_RESPONSES = {
  201: { description: 'Booked', schema: pickupResultSchema },
  400: { description: 'Invalid guests, or a category the block does not hold' },
  404: { description: 'No such block' },
  409: { description: '`block_overdrawn`, `block_not_holding`, `no_free_room` or `room_taken`: nothing booked' },
};

export function blocksRoutes(blocks: BlocksService): RouteDefinition[] {
  return [
    defineHotelRoute<BlockInput>({
      method: 'post',
      path: '/api/hotels/:slug/blocks',
      summary: 'Create a group block (allotment)',
      description:
        `A \`name\`, optionally a \`company\` and contact, a \`tariff_id\` or a \`price_per_night\` for its stays, ` +
        `a \`status\` (default \`inquiry\`) and the \`allotment\`. ${HOLDING} A block that holds is checked against ` +
        'the inventory like a booking: 409 `rooms_not_available` names the category and night without enough free ' +
        'rooms for every unit held.',
      tags,
      access: { kind: 'hotel', roles: BLOCK_WRITERS },
      request: { params: slugParams, body: createBlockBody },
      responses: {
        201: { description: 'Created', schema: blockSchema },
        400: { description: 'Invalid, a category not of this hotel, or more units than the category has rooms' },
        409: { description: '`rooms_not_available`: the rooms are not free for what it holds' },
      },
      async handler({ hotel, auth, body, res }) {
        res.status(201).json(await blocks.create(hotel.id, body, { userId: auth.sub, hotelSlug: hotel.slug }));
      },
    }),
    defineHotelRoute<unknown, { status?: BlockStatus } & PageRequest>({
      method: 'get',
      path: '/api/hotels/:slug/blocks',
      summary: 'List group blocks',
      description: 'Newest first; `status` narrows it.',
      tags,
      access: { kind: 'hotel', roles: BLOCK_READERS },
      request: { params: slugParams, query: blockListQuery },
      responses: {
        200: { description: 'Blocks', schema: Joi.array().items(blockSummarySchema), headers: PAGE_HEADERS },
      },
      async handler({ hotel, query, res }) {
        sendPage(res, await blocks.list(hotel.id, query));
      },
    }),
    defineHotelRoute<unknown, unknown, IdParams>({
      method: 'get',
      path: '/api/hotels/:slug/blocks/:id',
      summary: 'A group block, its nights and its stays',
      tags,
      access: { kind: 'hotel', roles: BLOCK_READERS },
      request: { params: idParams },
      responses: { 200: { description: 'The block', schema: blockSchema }, 404: { description: 'No such block' } },
      async handler({ hotel, params, res }) {
        res.json(await blocks.get(hotel.id, params.id));
      },
    }),
    defineHotelRoute<BlockChanges, unknown, IdParams>({
      method: 'patch',
      path: '/api/hotels/:slug/blocks/:id',
      summary: 'Change or cancel a group block',
      description:
        `The fields given change; an \`allotment\` replaces every night held. ${HOLDING} What a change makes the ` +
        'block hold anew (more units, new nights, an inquiry becoming tentative) is checked like a booking (409 ' +
        '`rooms_not_available`); fewer units than its stays already take is 409 `below_pickup`. Cancelling ' +
        '(`status: cancelled`) releases what it holds; its stays are kept as ordinary bookings (listed in `bookings`; ' +
        'they keep their `block_id`) and a later change of theirs is checked as any stay. A cancelled block is 422. ' +
        'Giving `tariff_id` clears `price_per_night` and the other way round.',
      tags,
      access: { kind: 'hotel', roles: BLOCK_WRITERS },
      request: { params: idParams, body: updateBlockBody },
      responses: {
        200: { description: 'Changed', schema: blockSchema },
        400: { description: 'Invalid' },
        404: { description: 'No such block' },
        409: { description: '`rooms_not_available` or `below_pickup`: nothing changed' },
        422: { description: 'The block is cancelled' },
      },
      async handler({ hotel, auth, params, body, res }) {
        res.json(await blocks.update(hotel.id, params.id, body, { userId: auth.sub, hotelSlug: hotel.slug }));
      },
    }),
    defineHotelRoute<{ items: AllotmentItem[] }, unknown, IdParams>({
      method: 'post',
      path: '/api/hotels/:slug/blocks/:id/wash',
      summary: 'Wash a group block: take held units off by hand',
      description:
        "Each item takes `rooms` units off each night `from`..`to` of a category (recorded in the nights' " +
        "`washed`), all or nothing; never below what the block's stays take on a night: 409 `below_pickup` names " +
        'it; a night the block does not hold is a 400 naming it. What is taken off goes back on sale at once.',
      tags,
      access: { kind: 'hotel', roles: BLOCK_WRITERS },
      request: { params: idParams, body: washBody },
      responses: {
        200: { description: 'Washed', schema: blockSchema },
        400: { description: 'Invalid items, or a category or night the block does not hold' },
        404: { description: 'No such block' },
        409: { description: '`below_pickup`: nothing taken' },
        422: { description: 'The block is cancelled' },
      },
      async handler({ hotel, params, body, res }) {
        res.json(await blocks.wash(hotel.id, params.id, body.items));
      },
    }),
    defineHotelRoute<{ guests: PickupGuest[] }, unknown, IdParams>({
      method: 'post',
      path: '/api/hotels/:slug/blocks/:id/pickup',
      summary: "Book the group's stays from a block",
      description:
        `Up to ${MAX_PICKUP_GUESTS} \`guests\`, each a stay of nights in a category the block holds, booked all or ` +
        "none as confirmed bookings of the block (`block_id`), priced by the block's price per night or tariff, each " +
        "in a room at once: the `room_id` named, or one by the hotel's assignment rule (sequential when rooms are " +
        `assigned by hand). ${PICKUP_REFUSALS}`,
      tags,
      access: { kind: 'hotel', roles: BLOCK_WRITERS },
      request: { params: idParams, body: pickupBody, headers: idempotencyKeyHeader },
      responses: PICKUP_RESPONSES,
      async handler({ hotel, auth, params, body, headers, res }) {
        const actor = { userId: auth.sub, hotelSlug: hotel.slug };
        const request = { guests: async () => body.guests, idempotencyKey: headers['idempotency-key'] };
        const result = await blocks.pickup(hotel.id, params.id, request, actor);
        res.status(result.status).json(result.body);
      },
    }),
    defineHotelRoute<unknown, unknown, IdParams>({
      method: 'post',
      path: '/api/hotels/:slug/blocks/:id/rooming-list',
      summary: "Book the group's stays from a rooming list (CSV)",
      description:
        `A \`text/csv\` body (UTF-8, at most ${MAX_ROOMING_LIST_BYTES / 1024} KB): a header line naming the ` +
        "columns, which are the fields of a pickup's guest (`category_id`, `check_in`, `check_out`, " +
        '`guest_last_name`, `guest_first_name`; optionally `room_id`, `guest_middle_name`, `guest_phone`, ' +
        `\`guest_email\`, \`guests_count\`, \`notes\`), then one guest a line (at most ${MAX_PICKUP_GUESTS}); an ` +
        'empty cell is an absent value. A line that cannot be read or a guest that is not valid is a 400 naming the ' +
        `line; otherwise booked as \`POST …/pickup\` books its guests. ${PICKUP_REFUSALS}`,
      tags,
      access: { kind: 'hotel', roles: BLOCK_WRITERS },
      request: { params: idParams, headers: idempotencyKeyHeader },
      responses: {
        ...PICKUP_RESPONSES,
        400: { description: 'A line that cannot be read or a guest that is not valid (named by its line)' },
        413: { description: 'The list is larger than allowed' },
        415: { description: 'Not `text/csv`' },
      },
      async handler({ hotel, auth, params, headers, req, res }) {
        const actor = { userId: auth.sub, hotelSlug: hotel.slug };
        const guests = async () => guestsOfRoomingList(await readRoomingList(req, res));
        const result = await blocks.pickup(
          hotel.id,
          params.id,
          { guests, idempotencyKey: headers['idempotency-key'] },
          actor,
        );
        res.status(result.status).json(result.body);
      },
    }),
    defineHotelRoute<unknown, unknown, IdParams>({
      method: 'get',
      path: '/api/hotels/:slug/blocks/:id/report',
      summary: "A block's pickup report",
      description: 'Per category and night: held now, picked up, released, washed and still free.',
      tags,
      access: { kind: 'hotel', roles: BLOCK_READERS },
      request: { params: idParams },
      responses: {
        200: { description: 'Nights by category then night', schema: pickupReportSchema },
        404: { description: 'No such block' },
      },
      async handler({ hotel, params, res }) {
        res.json(await blocks.report(hotel.id, params.id));
      },
    }),
  ];
}
