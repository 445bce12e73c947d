import Joi from 'joi';
import { PAGE_HEADERS, pageQueryKeys, sendPage } from '../../platform/http/pagination';
import { defineHotelRoute, type RouteDefinition } from '../../platform/http/route';
import { HOTEL_MANAGEMENT, type Role } from '../../platform/http/roles';
import { idParams, okResponse, slugParams } from '../../platform/http/schemas';
import type { PageRequest } from '../../platform/db/keyset';
import {
  apiConfigSchema,
  cloudLockSchema,
  configSchema,
  findApiConfigBody,
  macParams,
  roomLockBody,
  roomLockSchema,
  testResultSchema,
  tokenSchema,
  updateConfigBody,
} from './lockvendor.schemas';
import type { LockvendorService } from './lockvendor.service';
import type { LockConfigInput, RoomLockInput } from './lockvendor.types';

/** The desk issues cards: it sees the settings (never a secret) and the locks, and changes neither. */
const CONFIG_READERS: readonly Role[] = ['hotel_admin', 'manager', 'receptionist'];
/** Technicians change batteries and replace locks: they see the locks and their rooms too. */
const LOCK_READERS: readonly Role[] = [...CONFIG_READERS, 'technician'];

const base = '/api/hotels/:slug/lockvendor';
const tags = ['Door locks'];
const cloudRefusal = {
  422: {
    description:
      'Not configured (`lock_vendor_not_configured`), or TTLock refused (`lock_vendor_refused`: wrong password, ' +
      'unknown app...): the message says why, for staff. 503 `lock_vendor_unavailable` when TTLock does not answer.',
  },
};

/** A delete of one mapping, named by id or by MAC: `{ ok: true }`, or 404. */
function removal<Params extends Record<string, string>>(route: {
  path: string;
  summary: string;
  description?: string;
  params: Joi.ObjectSchema;
  remove(hotelId: string, params: Params): Promise<void>;
}): RouteDefinition {
  return defineHotelRoute<unknown, unknown, Params>({
    method: 'delete',
    path: route.path,
    summary: route.summary,
    description: route.description,
    tags,
    access: { kind: 'hotel', roles: HOTEL_MANAGEMENT },
    request: { params: route.params },
    responses: { 200: { description: 'Deleted', schema: okResponse }, 404: { description: 'No such mapping' } },
    async handler({ hotel, params, res }) {
      await route.remove(hotel.id, params);
      res.json({ ok: true });
    },
  });
}

export function lockvendorRoutes(lockvendor: LockvendorService): RouteDefinition[] {
  const manage = { kind: 'hotel', roles: HOTEL_MANAGEMENT } as const;
  return [
    defineHotelRoute({
      method: 'get',
      path: `${base}/config`,
      summary: 'Read the door-lock cloud settings',
      description: 'Secrets are never answered: `client_secret_set` (with a hint) and `password_set` say they are.',
      tags,
      access: { kind: 'hotel', roles: CONFIG_READERS },
      concurrency: 'if-match',
      request: { params: slugParams },
      responses: { 200: { description: 'Settings', schema: configSchema } },
      async handler({ hotel, res }) {
        res.json(await lockvendor.config.get(hotel.id));
      },
    }),
    defineHotelRoute<LockConfigInput>({
      method: 'patch',
      path: `${base}/config`,
      summary: 'Update the door-lock cloud settings',
      description:
        'Any of the fields, at least one; `null` clears one. `client_id` and `client_secret` are the TTLock open ' +
        "platform app's keys, `username` and `password` the TTLock (TTHotel) account that holds the locks, " +
        '`api_server` its cloud (`EU` or `China`). The secret and the password are stored encrypted and never ' +
        'answered. Changing any of them (or the account, or the server) drops the stored token. `enabled` (card ' +
        'issuance on) needs all four set (422 otherwise).',
      tags,
      access: manage,
      concurrency: 'if-match',
      request: { params: slugParams, body: updateConfigBody },
      responses: {
        200: { description: 'Settings', schema: configSchema },
        422: { description: 'Enabling without all a sign-in needs (`lock_vendor_not_configured`)' },
      },
      async handler({ hotel, body, expectedVersion, res }) {
        res.json(await lockvendor.config.update(hotel.id, body, expectedVersion));
      },
    }),
    defineHotelRoute({
      method: 'post',
      path: `${base}/token`,
      summary: 'Sign in to the lock cloud',
      description:
        'Gets an access token with the stored account (the password travels as its MD5) and keeps it encrypted; it ' +
        'is refreshed a day before it expires. Answers when it expires and the TTLock user id, never the token.',
      tags,
      access: manage,
      request: { params: slugParams },
      responses: { 200: { description: 'Signed in', schema: tokenSchema }, ...cloudRefusal },
      async handler({ hotel, res }) {
        res.json(await lockvendor.signIn(hotel.id));
      },
    }),
    defineHotelRoute({
      method: 'post',
      path: `${base}/test`,
      summary: 'Check the lock cloud settings end to end',
      description:
        'Signs in afresh (keeping the token) and reads the first page of locks: `locks_count` is their total.',
      tags,
      access: manage,
      request: { params: slugParams },
      responses: { 200: { description: 'The settings work', schema: testResultSchema }, ...cloudRefusal },
      async handler({ hotel, res }) {
        res.json(await lockvendor.test(hotel.id));
      },
    }),
    defineHotelRoute<{ save: boolean }>({
      method: 'post',
      path: `${base}/find-api-config`,
      summary: 'Find the cloud server of the account',
      description:
        'Signs in with the stored account on the EU server, then the Chinese one (TTLock answers 30008 on the wrong ' +
        'one), and answers the first that accepts it. With `save: true` that server and its token are stored.',
      tags,
      access: manage,
      request: { params: slugParams, body: findApiConfigBody },
      responses: { 200: { description: 'The server', schema: apiConfigSchema }, ...cloudRefusal },
      async handler({ hotel, body, res }) {
        res.json(await lockvendor.findApiServer(hotel.id, body.save));
      },
    }),
    defineHotelRoute({
      method: 'get',
      path: `${base}/locks`,
      summary: "List the account's locks",
      description:
        'Every lock of the TTLock account, read from the cloud, with the room our mapping puts it on (by MAC). Not ' +
        "paged: the cloud's list, whole.",
      tags,
      access: { kind: 'hotel', roles: LOCK_READERS },
      request: { params: slugParams },
      responses: { 200: { description: 'Locks', schema: Joi.array().items(cloudLockSchema) }, ...cloudRefusal },
      async handler({ hotel, res }) {
        res.json(await lockvendor.locks(hotel.id));
      },
    }),
    defineHotelRoute<unknown, PageRequest>({
      method: 'get',
      path: `${base}/room-locks`,
      summary: 'List the room-lock mappings',
      tags,
      access: { kind: 'hotel', roles: LOCK_READERS },
      request: { params: slugParams, query: Joi.object(pageQueryKeys) },
      responses: {
        200: { description: 'Mappings, by MAC', schema: Joi.array().items(roomLockSchema), headers: PAGE_HEADERS },
      },
      async handler({ hotel, query, res }) {
        sendPage(res, await lockvendor.roomLocks.list(hotel.id, query));
      },
    }),
    defineHotelRoute<RoomLockInput>({
      method: 'post',
      path: `${base}/room-locks`,
      summary: 'Map a lock to a room',
      description:
        'Upsert by `lock_mac` (any of `AA:BB:CC:DD:EE:FF`, `aa-bb-…`, `aabbcc…`; stored upper-case with colons): a ' +
        'MAC the hotel has is changed (201 when new, 200 when changed), the optional fields left out keep their ' +
        'values. `room_id` (or null: a lock on no room) must be a room of this hotel (400), which has no other lock ' +
        '(409). `build_no` and `floor_no` (0–255) are written to cards.',
      tags,
      access: manage,
      request: { params: slugParams, body: roomLockBody },
      responses: {
        200: { description: 'Changed', schema: roomLockSchema },
        201: { description: 'Created', schema: roomLockSchema },
        409: { description: 'The room has another lock' },
      },
      async handler({ hotel, body, res }) {
        const { roomLock, created } = await lockvendor.roomLocks.upsert(hotel.id, body);
        res.status(created ? 201 : 200).json(roomLock);
      },
    }),
    removal({
      path: `${base}/room-locks/:id`,
      summary: 'Delete a room-lock mapping',
      params: idParams,
      remove: (hotelId, { id }) => lockvendor.roomLocks.remove(hotelId, id),
    }),
    removal({
      path: `${base}/room-locks/by-mac/:mac`,
      summary: 'Delete the mapping of a lock by its MAC',
      description: 'The MAC in any of the forms POST takes.',
      params: macParams,
      remove: (hotelId, { mac }) => lockvendor.roomLocks.removeByMac(hotelId, mac),
    }),
  ];
}
