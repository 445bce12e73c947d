import { crudRoutes } from '../../platform/http/crud';
import { defineHotelRoute, type RouteDefinition } from '../../platform/http/route';
import { ALL_STAFF, HOTEL_MANAGEMENT, type Role } from '../../platform/http/roles';
import { idParams } from '../../platform/http/schemas';
import {
  categoryListQuery,
  categorySchema,
  createCategoryBody,
  createRoomBody,
  roomListQuery,
  roomSchema,
  roomStatusBody,
  updateCategoryBody,
  updateRoomBody,
} from './rooms.schemas';
import { roomMessages, type RoomsService } from './rooms.service';
import type { RoomInput, RoomStatus } from './rooms.types';

/** Who moves a room between statuses on the floor: the desk, housekeeping and maintenance, besides management. */
const ROOM_STATUS_ROLES: readonly Role[] = ['hotel_admin', 'manager', 'receptionist', 'housekeeper', 'technician'];

export function roomsRoutes(rooms: RoomsService): RouteDefinition[] {
  return [
    ...crudRoutes({
      basePath: '/api/hotels/:slug/room-categories',
      noun: 'room category',
      tags: ['Rooms'],
      readRoles: ALL_STAFF,
      writeRoles: HOTEL_MANAGEMENT,
      schemas: {
        item: categorySchema,
        create: createCategoryBody,
        update: updateCategoryBody,
        listQuery: categoryListQuery,
      },
      service: {
        list: rooms.listCategories,
        get: rooms.getCategory,
        create: rooms.createCategory,
        update: rooms.updateCategory,
        remove: rooms.deleteCategory,
      },
      descriptions: {
        create: 'Prices are decimal amounts; `photos` are URLs returned by `POST /api/upload`.',
        remove: 'Refused with 409 while rooms or bookings belong to the category.',
      },
      refusals: {
        remove: {
          409: {
            description: `${roomMessages.categoryHasRooms} | ${roomMessages.categoryHasBookings} | ${roomMessages.categoryHeldByBlock}`,
          },
        },
      },
    }),
    ...crudRoutes({
      basePath: '/api/hotels/:slug/rooms',
      noun: 'room',
      tags: ['Rooms'],
      readRoles: ALL_STAFF,
      writeRoles: HOTEL_MANAGEMENT,
      schemas: { item: roomSchema, create: createRoomBody, update: updateRoomBody, listQuery: roomListQuery },
      service: {
        list: rooms.listRooms,
        get: rooms.getRoom,
        create: rooms.createRoom,
        update: rooms.updateRoom,
        remove: rooms.deleteRoom,
      },
      descriptions: {
        create:
          'Room numbers are unique within the hotel (409). `base_rate`/`hourly_rate` override the category prices ' +
          'for this room. Status `cleaning` cannot be set by hand (422).',
      },
      refusals: {
        create: { 422: { description: roomMessages.cleaningIsAutomatic } },
        update: { 422: { description: roomMessages.cleaningIsAutomatic } },
        remove: { 409: { description: roomMessages.roomHasHistory } },
      },
    }),
    defineHotelRoute<
      Pick<RoomInput, 'maintenance_from' | 'maintenance_to'> & { status: RoomStatus },
      unknown,
      { id: string }
    >({
      method: 'patch',
      path: '/api/hotels/:slug/rooms/:id/status',
      summary: 'Set a room status',
      description:
        'Any status but `cleaning`, which only a housekeeping task in progress produces (422). `maintenance` and ' +
        '`closed` may carry `maintenance_from`/`maintenance_to`.',
      tags: ['Rooms'],
      access: { kind: 'hotel', roles: ROOM_STATUS_ROLES },
      concurrency: 'if-match',
      request: { params: idParams, body: roomStatusBody },
      responses: {
        200: { description: 'The room', schema: roomSchema },
        404: { description: 'No such room' },
        422: { description: roomMessages.cleaningIsAutomatic },
      },
      async handler({ hotel, params, body, expectedVersion, res }) {
        res.json(await rooms.updateRoom(hotel.id, params.id, body, expectedVersion));
      },
    }),
  ];
}
