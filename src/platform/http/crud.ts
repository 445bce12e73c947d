import Joi from 'joi';
import type { Page, PageRequest } from '../db/keyset';
import type { ExpectedVersion } from './concurrency';
import { PAGE_HEADERS, pageQueryKeys, sendPage } from './pagination';
import { defineHotelRoute, type ResponseSpec, type RouteDefinition } from './route';
import type { Role } from './roles';
import { idParams, okResponse, slugParams } from './schemas';

/**
 * What a hotel-scoped resource offers; every method takes the tenant first. Lists come a page at a time; `update` and
 * `remove` apply only to the version `If-Match` names, when it names one.
 */
export interface CrudService<Item, Query, Create, Update> {
  list(hotelId: string, query: Query & PageRequest): Promise<Page<Item>>;
  get(hotelId: string, id: string): Promise<Item>;
  create(hotelId: string, body: Create): Promise<Item>;
  update(hotelId: string, id: string, body: Update, expectedVersion?: ExpectedVersion): Promise<Item>;
  remove(hotelId: string, id: string, expectedVersion?: ExpectedVersion): Promise<void>;
}

export interface CrudOptions<Item, Query, Create, Update> {
  /** e.g. `/api/hotels/:slug/rooms` */
  basePath: string;
  noun: string;
  tags: string[];
  readRoles: readonly Role[];
  writeRoles: readonly Role[];
  schemas: { item: Joi.Schema; create: Joi.ObjectSchema; update: Joi.ObjectSchema; listQuery?: Joi.ObjectSchema };
  service: CrudService<Item, Query, Create, Update>;
  descriptions?: { create?: string; update?: string; remove?: string };
  /** Refusals the resource's own rules add, by operation (e.g. a 422 on create, a 409 on delete while in use). */
  refusals?: {
    create?: Record<number, ResponseSpec>;
    update?: Record<number, ResponseSpec>;
    remove?: Record<number, ResponseSpec>;
  };
  /** Why create takes no `Idempotency-Key`, when it does not (route.ts `idempotency`). */
  createWithoutKey?: { none: string };
}

/** List, read, create, update and delete routes of a hotel-scoped resource, declared the one way. */
export function crudRoutes<Item, Query, Create, Update>(
  options: CrudOptions<Item, Query, Create, Update>,
): RouteDefinition[] {
  const { basePath, noun, tags, readRoles, writeRoles, schemas, service, descriptions = {}, refusals = {} } = options;
  const itemPath = `${basePath}/:id`;
  const notFound = { description: `No such ${noun} in this hotel` };
  return [
    defineHotelRoute<unknown, Query & PageRequest>({
      method: 'get',
      path: basePath,
      summary: `List ${noun}s`,
      tags,
      access: { kind: 'hotel', roles: readRoles },
      request: { params: slugParams, query: (schemas.listQuery ?? Joi.object()).keys(pageQueryKeys) },
      responses: {
        200: {
          description: `The ${noun}s, a page at a time`,
          schema: Joi.array().items(schemas.item),
          headers: PAGE_HEADERS,
        },
      },
      async handler({ hotel, query, res }) {
        sendPage(res, await service.list(hotel.id, query));
      },
    }),
    defineHotelRoute<Create>({
      method: 'post',
      path: basePath,
      summary: `Create a ${noun}`,
      description: descriptions.create,
      idempotency: options.createWithoutKey,
      tags,
      access: { kind: 'hotel', roles: writeRoles },
      request: { params: slugParams, body: schemas.create },
      responses: {
        201: { description: 'Created', schema: schemas.item },
        409: { description: 'Conflicts with another' },
        ...refusals.create,
      },
      async handler({ hotel, body, res }) {
        res.status(201).json(await service.create(hotel.id, body));
      },
    }),
    defineHotelRoute<unknown, unknown, { id: string }>({
      method: 'get',
      path: itemPath,
      summary: `Read a ${noun}`,
      tags,
      access: { kind: 'hotel', roles: readRoles },
      concurrency: 'if-match',
      request: { params: idParams },
      responses: { 200: { description: `The ${noun}`, schema: schemas.item }, 404: notFound },
      async handler({ hotel, params, res }) {
        res.json(await service.get(hotel.id, params.id));
      },
    }),
    defineHotelRoute<Update, unknown, { id: string }>({
      method: 'patch',
      path: itemPath,
      summary: `Update a ${noun}`,
      description: descriptions.update,
      tags,
      access: { kind: 'hotel', roles: writeRoles },
      concurrency: 'if-match',
      request: { params: idParams, body: schemas.update },
      responses: {
        200: { description: 'Updated', schema: schemas.item },
        404: notFound,
        409: { description: 'Conflicts with another' },
        ...refusals.update,
      },
      async handler({ hotel, params, body, expectedVersion, res }) {
        res.json(await service.update(hotel.id, params.id, body, expectedVersion));
      },
    }),
    defineHotelRoute<unknown, unknown, { id: string }>({
      method: 'delete',
      path: itemPath,
      summary: `Delete a ${noun}`,
      description: descriptions.remove,
      tags,
      access: { kind: 'hotel', roles: writeRoles },
      concurrency: 'if-match',
      request: { params: idParams },
      responses: { 200: { description: 'Deleted', schema: okResponse }, 404: notFound, ...refusals.remove },
      async handler({ hotel, params, expectedVersion, res }) {
        await service.remove(hotel.id, params.id, expectedVersion);
        res.json({ ok: true });
      },
    }),
  ];
}
