import Joi from 'joi';
import type { PageRequest } from '../../platform/db/keyset';
import { crudRoutes } from '../../platform/http/crud';
import { PAGE_HEADERS, pageQueryKeys, sendPage } from '../../platform/http/pagination';
import { defineRoute, type RouteDefinition } from '../../platform/http/route';
import { idParams, okResponse } from '../../platform/http/schemas';
import { agentMessages, invalidPairCode, PAIR_CODE_TTL_MINUTES } from './agents.messages';
import {
  createDeviceBody,
  createWorkstationBody,
  deviceParams,
  deviceSchema,
  pairBody,
  pairCodeSchema,
  pairingSchema,
  releaseSchema,
  updateDeviceBody,
  updateWorkstationBody,
  workstationSchema,
} from './agents.schemas';
import type { AgentsService } from './agents.service';
import { deskRoutes } from './agents.desk-routes';
import {
  DEVICE,
  DEVICES,
  deviceNotFound,
  READERS,
  tags,
  tooMany,
  workstationNotFound,
  workstationRoute,
  WORKSTATIONS,
  WRITERS,
  type WorkstationParams,
} from './agents.route-kit';
import type { DeviceInput, PairRequest } from './agents.types';
import { answersNewSecret } from '../../platform/http/idempotency-key';

function workstationRoutes({ workstations }: AgentsService): RouteDefinition[] {
  return [
    ...crudRoutes({
      basePath: WORKSTATIONS,
      noun: 'workstation',
      tags,
      readRoles: READERS,
      writeRoles: WRITERS,
      schemas: { item: workstationSchema, create: createWorkstationBody, update: updateWorkstationBody },
      service: workstations,
      descriptions: {
        create:
          '`paired`, `online`, `agent_version` and `last_seen_at` come from its agent, which pairs with a pair code.',
        remove: 'Its devices go with it, and its agent credential stops working at once.',
      },
    }),
    workstationRoute<unknown, unknown, WorkstationParams>({
      method: 'post',
      path: `${WORKSTATIONS}/:id/pair-code`,
      idempotency: answersNewSecret,
      summary: 'Issue a pair code for the workstation’s agent',
      description:
        `A code of 8 characters, valid ${PAIR_CODE_TTL_MINUTES} minutes and once, that the agent exchanges for its ` +
        'credential (`POST /api/agents/pair`). Shown only in this answer; a new code replaces the previous one.',
      writes: true,
      request: { params: idParams },
      responses: { 201: { description: 'The code', schema: pairCodeSchema }, ...workstationNotFound },
      async handle({ owner, res }) {
        res.status(201).json(await workstations.issuePairCode(owner.hotelId, owner.workstationId));
      },
    }),
    workstationRoute<unknown, unknown, WorkstationParams>({
      method: 'post',
      path: `${WORKSTATIONS}/:id/revoke`,
      summary: 'Revoke the workstation’s agent credential',
      description: 'The credential (and any pending pair code) stops working at once; pair again to reconnect.',
      writes: true,
      request: { params: idParams },
      responses: {
        200: { description: 'The workstation, unpaired', schema: workstationSchema },
        ...workstationNotFound,
      },
      async handle({ owner, res }) {
        res.json(await workstations.revoke(owner.hotelId, owner.workstationId));
      },
    }),
  ];
}

function deviceRoutes({ devices }: AgentsService): RouteDefinition[] {
  return [
    workstationRoute<unknown, PageRequest, WorkstationParams>({
      method: 'get',
      path: DEVICES,
      summary: 'List the devices of a workstation',
      writes: false,
      request: { params: idParams, query: Joi.object(pageQueryKeys) },
      responses: {
        200: { description: 'Devices by name', schema: Joi.array().items(deviceSchema), headers: PAGE_HEADERS },
        ...workstationNotFound,
      },
      async handle({ owner, query, res }) {
        sendPage(res, await devices.list(owner, query));
      },
    }),
    workstationRoute<DeviceInput, unknown, WorkstationParams>({
      method: 'post',
      path: DEVICES,
      summary: 'Attach a device to a workstation',
      description: '`com_port` is required with `connection: com` (400 otherwise, also when only one of them changes).',
      writes: true,
      request: { params: idParams, body: createDeviceBody },
      responses: { 201: { description: 'Attached', schema: deviceSchema }, ...workstationNotFound },
      async handle({ owner, body, res }) {
        res.status(201).json(await devices.create(owner, body));
      },
    }),
    workstationRoute({
      method: 'get',
      path: DEVICE,
      summary: 'Read a device',
      writes: false,
      concurrency: 'if-match',
      request: { params: deviceParams },
      responses: { 200: { description: 'The device', schema: deviceSchema }, ...deviceNotFound },
      async handle({ owner, params, res }) {
        res.json(await devices.get(owner, params.deviceId));
      },
    }),
    workstationRoute<DeviceInput>({
      method: 'patch',
      path: DEVICE,
      summary: 'Change a device',
      writes: true,
      concurrency: 'if-match',
      request: { params: deviceParams, body: updateDeviceBody },
      responses: { 200: { description: 'Changed', schema: deviceSchema }, ...deviceNotFound },
      async handle({ owner, params, body, expectedVersion, res }) {
        res.json(await devices.update(owner, params.deviceId, body, expectedVersion));
      },
    }),
    workstationRoute({
      method: 'delete',
      path: DEVICE,
      summary: 'Detach a device',
      writes: true,
      concurrency: 'if-match',
      request: { params: deviceParams },
      responses: { 200: { description: 'Detached', schema: okResponse }, ...deviceNotFound },
      async handle({ owner, params, expectedVersion, res }) {
        await devices.remove(owner, params.deviceId, expectedVersion);
        res.json({ ok: true });
      },
    }),
  ];
}

/** What an agent calls before it has a channel: public, so no staff token opens anything more here. */
const agentRoute = <Body = unknown>(route: Omit<RouteDefinition<Body>, 'tags' | 'access'>) =>
  defineRoute<Body>({ ...route, tags, access: { kind: 'public' }, caller: 'agent' });

function agentRoutes(agents: AgentsService): RouteDefinition[] {
  return [
    agentRoute<PairRequest>({
      method: 'post',
      path: '/api/agents/pair',
      idempotency: answersNewSecret,
      summary: 'Pair an agent with its workstation',
      description:
        'Exchanges a pair code (once, before it expires) for the credential the agent connects with; the ' +
        "workstation's previous credential stops working. An unknown, used or expired code is a 401 with one message.",
      rateLimit: { scope: 'agents.pair' },
      oneAnswer: { refusal: invalidPairCode, inputs: ['body.pair_code'] },
      request: { body: pairBody },
      responses: {
        201: { description: 'Paired', schema: pairingSchema },
        401: { description: agentMessages.invalidPairCode },
        429: tooMany,
      },
      async handler({ body, res }) {
        res.status(201).json(await agents.pair(body));
      },
    }),
    agentRoute({
      method: 'get',
      path: '/api/agents/latest-release',
      summary: 'The latest agent release',
      description: 'What agents update to; `url`, `sha256` and `published_at` are null until a build is published.',
      // Every agent of every hotel polls it: counted in this process, never written to the database.
      rateLimit: { scope: 'agents.latest-release', store: 'local' },
      responses: { 200: { description: 'The release', schema: releaseSchema }, 429: tooMany },
      async handler({ res }) {
        res.json(agents.latestRelease());
      },
    }),
  ];
}

export function agentsRoutes(agents: AgentsService): RouteDefinition[] {
  return [...workstationRoutes(agents), ...deviceRoutes(agents), ...deskRoutes(agents), ...agentRoutes(agents)];
}
