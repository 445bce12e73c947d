import type { Role } from '../../platform/http/roles';
import {
  defineHotelRoute,
  type HotelRouteContext,
  type HotelRouteDefinition,
  type RouteDefinition,
} from '../../platform/http/route';
import type { DeviceOwner } from './agents.devices';
import { agentMessages } from './agents.messages';

/** The desk sees its workstations and their devices; management sets them up and pairs their agents. */
export const READERS: readonly Role[] = ['hotel_admin', 'manager', 'receptionist'];
export const WRITERS: readonly Role[] = ['hotel_admin', 'manager'];

export const tags = ['Workstations'];
export const WORKSTATIONS = '/api/hotels/:slug/workstations';
export const DEVICES = `${WORKSTATIONS}/:id/devices`;
export const DEVICE = `${DEVICES}/:deviceId`;

export type WorkstationParams = { id: string };
export type DeviceParams = WorkstationParams & { deviceId: string };

export const workstationNotFound = { 404: { description: agentMessages.workstationNotFound } };
export const tooMany = { description: 'Too many requests from this address (`Retry-After`)' };
export const deviceNotFound = { 404: { description: 'No such device on this workstation of this hotel' } };

type WorkstationRouteSpec<Body, Query, Params extends WorkstationParams> = Omit<
  HotelRouteDefinition<Body, Query, Params>,
  'tags' | 'access' | 'handler'
> & {
  writes: boolean;
  handle(ctx: HotelRouteContext<Body, Query, Params> & { owner: DeviceOwner }): Promise<void>;
};

/** A route under one workstation (`:id`): its pair code, its credential, its devices. */
export function workstationRoute<Body = unknown, Query = unknown, Params extends WorkstationParams = DeviceParams>({
  writes,
  handle,
  ...route
}: WorkstationRouteSpec<Body, Query, Params>): RouteDefinition {
  return defineHotelRoute<Body, Query, Params>({
    ...route,
    tags,
    access: { kind: 'hotel', roles: writes ? WRITERS : READERS },
    handler: (ctx) => handle({ ...ctx, owner: { hotelId: ctx.hotel.id, workstationId: ctx.params.id } }),
  });
}
