import { defineHotelRoute, type RouteDefinition } from '../../platform/http/route';
import { idParams, slugParams } from '../../platform/http/schemas';
import {
  deviceTestResult,
  pingBody,
  pingResult,
  portsResult,
  printersResult,
  testDeviceBody,
  updateAllResult,
  updateResult,
} from './agents.desk-schemas';
import { agentMessages } from './agents.messages';
import {
  tags,
  workstationNotFound,
  workstationRoute,
  WORKSTATIONS,
  WRITERS,
  type WorkstationParams,
} from './agents.route-kit';
import type { AgentsService } from './agents.service';

/** What every desk command may answer besides its result. */
const deskRefusals = {
  ...workstationNotFound,
  409: { description: agentMessages.workstationOffline },
  502: { description: 'The agent refused (`agent_error`: its code and words) or answered off-protocol' },
  504: { description: agentMessages.agentTimeout },
};

/** Diagnostics a receptionist runs at the desk, and agent updates management starts; answered while they wait. */
export function deskRoutes({ desk }: AgentsService): RouteDefinition[] {
  return [
    workstationRoute<{ host: string }, unknown, WorkstationParams>({
      method: 'post',
      path: `${WORKSTATIONS}/:id/ping`,
      summary: 'Ping a host from the workstation',
      description: 'The agent sends 4 echo requests to `host` (a lock gateway, the TV server) and reports each reply.',
      writes: false,
      request: { params: idParams, body: pingBody },
      responses: { 200: { description: 'The echo replies', schema: pingResult }, ...deskRefusals },
      async handle({ owner, body, res }) {
        res.json(await desk.ping(owner, body.host));
      },
    }),
    workstationRoute<unknown, unknown, WorkstationParams>({
      method: 'get',
      path: `${WORKSTATIONS}/:id/list-ports`,
      summary: 'List the serial ports of the workstation',
      writes: false,
      request: { params: idParams },
      responses: { 200: { description: 'Its COM ports', schema: portsResult }, ...deskRefusals },
      async handle({ owner, res }) {
        res.json(await desk.listPorts(owner));
      },
    }),
    workstationRoute<unknown, unknown, WorkstationParams>({
      method: 'get',
      path: `${WORKSTATIONS}/:id/printers`,
      summary: 'List the printers installed on the workstation',
      writes: false,
      request: { params: idParams },
      responses: { 200: { description: 'Its printers', schema: printersResult }, ...deskRefusals },
      async handle({ owner, res }) {
        res.json(await desk.printers(owner));
      },
    }),
    workstationRoute<{ device_id: string }, unknown, WorkstationParams>({
      method: 'post',
      path: `${WORKSTATIONS}/:id/test-device`,
      summary: 'Test a device attached to the workstation',
      description: 'The agent opens the device as configured (port, driver) and reports whether it answers.',
      writes: false,
      request: { params: idParams, body: testDeviceBody },
      responses: { 200: { description: 'The device answered', schema: deviceTestResult }, ...deskRefusals },
      async handle({ owner, body, res }) {
        res.json(await desk.testDevice(owner, body.device_id));
      },
    }),
    workstationRoute<unknown, unknown, WorkstationParams>({
      method: 'post',
      path: `${WORKSTATIONS}/:id/update`,
      summary: 'Tell the workstation’s agent to update',
      description:
        'To the release of `GET /api/agents/latest-release` (409 `no_agent_release` while none is published); the ' +
        'agent installs it and reconnects reporting its new `agent_version`.',
      writes: true,
      request: { params: idParams },
      responses: { 200: { description: 'The agent’s answer', schema: updateResult }, ...deskRefusals },
      async handle({ owner, res }) {
        res.json(await desk.update(owner));
      },
    }),
    defineHotelRoute({
      method: 'post',
      path: `${WORKSTATIONS}/update-all`,
      summary: 'Tell every connected agent on another version to update',
      description: 'Each desk’s answer is reported (`error` in words for those that did not take it).',
      tags,
      access: { kind: 'hotel', roles: WRITERS },
      request: { params: slugParams },
      responses: {
        200: { description: 'What each desk answered', schema: updateAllResult },
        409: { description: agentMessages.noRelease },
      },
      async handler({ hotel, res }) {
        res.json(await desk.updateAll(hotel.id));
      },
    }),
  ];
}
