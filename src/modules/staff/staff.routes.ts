import type { PageRequest } from '../../platform/db/keyset';
import { PAGE_HEADERS, sendPage } from '../../platform/http/pagination';
import { defineHotelRoute, type RouteDefinition } from '../../platform/http/route';
import { okResponse, slugParams } from '../../platform/http/schemas';
import { ALL_STAFF, HOTEL_MANAGEMENT } from '../../platform/http/roles';
import type { StaffFilter } from '../users';
import {
  createStaffBody,
  staffListQuery,
  staffListSchema,
  staffMemberSchema,
  staffParams,
  updateStaffBody,
} from './staff.schemas';
import { staffMessages, type NewStaffInput, type StaffChanges, type StaffService } from './staff.service';

export function staffRoutes(staff: StaffService): RouteDefinition[] {
  const tags = ['Staff'];
  return [
    defineHotelRoute<unknown, StaffFilter & PageRequest>({
      method: 'get',
      path: '/api/hotels/:slug/users',
      summary: 'List the hotel staff',
      tags,
      access: { kind: 'hotel', roles: ALL_STAFF },
      request: { params: slugParams, query: staffListQuery },
      responses: { 200: { description: 'Staff, oldest first', schema: staffListSchema, headers: PAGE_HEADERS } },
      async handler({ hotel, query, res }) {
        sendPage(res, await staff.list(hotel.id, query));
      },
    }),
    defineHotelRoute<NewStaffInput>({
      method: 'post',
      path: '/api/hotels/:slug/users',
      summary: 'Add a staff member',
      // A kept key stores a digest of its body, and this body may carry a password.
      idempotency: { none: 'a second account with the e-mail is refused (409)' },
      description:
        'With `password` (8+ characters with a letter) the account is active and confirmed at once. Without it the ' +
        'account is inactive and an invitation link valid 7 days is e-mailed; an invitation not accepted in time ' +
        'shows `invitation_status: expired`. The role hotel_admin cannot be given (403).',
      tags,
      access: { kind: 'hotel', roles: HOTEL_MANAGEMENT },
      request: { params: slugParams, body: createStaffBody },
      responses: {
        201: { description: 'Created', schema: staffMemberSchema },
        409: { description: staffMessages.emailTaken },
      },
      async handler({ hotel, body, res }) {
        res.status(201).json(await staff.create(hotel, body));
      },
    }),
    defineHotelRoute<StaffChanges, unknown, { id: string }>({
      method: 'patch',
      path: '/api/hotels/:slug/users/:id',
      summary: 'Update a staff member',
      description:
        'The owner (hotel_admin) can be changed only by super_admin; hotel_admin cannot be assigned; nobody changes ' +
        "their own role or active flag (422). Deactivating ends the member's sessions; a role change applies at their next refresh.",
      tags,
      access: { kind: 'hotel', roles: HOTEL_MANAGEMENT },
      concurrency: 'if-match',
      request: { params: staffParams, body: updateStaffBody },
      responses: {
        200: { description: 'Updated', schema: staffMemberSchema },
        404: { description: staffMessages.notFound },
        422: { description: staffMessages.selfChange },
      },
      async handler({ hotel, params, body, auth, expectedVersion, res }) {
        res.json(await staff.update(hotel.id, params.id, body, auth, expectedVersion));
      },
    }),
    defineHotelRoute<unknown, unknown, { id: string }>({
      method: 'delete',
      path: '/api/hotels/:slug/users/:id',
      summary: 'Delete a staff member',
      description:
        'The owner (hotel_admin) can be deleted only by super_admin; nobody deletes their own account (422).',
      tags,
      access: { kind: 'hotel', roles: HOTEL_MANAGEMENT },
      concurrency: 'if-match',
      request: { params: staffParams },
      responses: {
        200: { description: 'Deleted', schema: okResponse },
        404: { description: staffMessages.notFound },
        422: { description: staffMessages.selfDelete },
      },
      async handler({ hotel, params, auth, expectedVersion, res }) {
        await staff.remove(hotel.id, params.id, auth, expectedVersion);
        res.json({ ok: true });
      },
    }),
  ];
}
