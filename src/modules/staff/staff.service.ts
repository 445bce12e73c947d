import type { StaffConfig } from './staff.env';
import { refusalsAs } from '../../platform/db/base-model';
import { mapPage, type PageRequest } from '../../platform/db/keyset';
import type { Db } from '../../platform/db/knex';
import { enqueueOutbox, startWorkflowMessage } from '../../platform/db/outbox';
import { initials } from '../../platform/temporal/memo';
import { randomHexToken } from '../../platform/crypto';
import { BusinessRuleError, ConflictError, ForbiddenError, NotFoundError } from '../../platform/errors';
import type { AccessTokenPayload } from '../../platform/http/access-token';
import { missingOrStale, type ExpectedVersion } from '../../platform/http/concurrency';
import type { HotelRef } from '../../platform/http/route';
import type { Role } from '../../platform/http/roles';
import { accountWorkflowIds, type StaffInvitationWorkflow } from '../../../workflows/contracts/accounts';
import { assertAcceptablePassword, hashPassword, type AuthService } from '../auth';
import type { StaffFilter, User, UserChanges, UsersService } from '../users';

export const staffMessages = {
  emailTaken: 'Пользователь с таким email уже существует',
  notFound: 'Сотрудник не найден',
  ownerProtected: 'Владельца отеля может изменить или удалить только super_admin',
  adminRoleNotAssignable: 'Роль администратора отеля нельзя назначить',
  selfChange: 'Нельзя изменить собственную роль или статус',
  selfDelete: 'Нельзя удалить собственную учётную запись',
};

export interface NewStaffInput {
  name: string;
  email: string;
  role: Role;
  phone?: string | null;
  position?: string;
  password?: string;
}

export type StaffChanges = Pick<UserChanges, 'name' | 'phone' | 'position' | 'active' | 'role'>;

/** What staff management shows of an account: never a hash or a token. */
export function toStaffMember(user: User) {
  return {
    id: user.id,
    hotel_id: user.hotel_id,
    name: user.name,
    email: user.email,
    role: user.role,
    phone: user.phone,
    position: user.position,
    active: user.active,
    email_confirmed: user.email_confirmed,
    invitation_status: user.invitation_status,
    invite_expires: user.invite_expires,
    created_at: user.created_at,
    updated_at: user.updated_at,
  };
}

function assertAssignable(role: Role | undefined): void {
  if (role === 'hotel_admin' || role === 'super_admin') throw new ForbiddenError(staffMessages.adminRoleNotAssignable);
}

export interface StaffDependencies {
  auth: Pick<AuthService, 'endAllSessions'>;
  users: UsersService;
}

export function createStaffService(db: Db, config: StaffConfig, deps: StaffDependencies) {
  async function findTarget(hotelId: string, userId: string, actor: AccessTokenPayload): Promise<User> {
    const target = await deps.users.findInHotel(hotelId, userId);
    if (!target) throw new NotFoundError(staffMessages.notFound);
    if (target.role === 'hotel_admin' && actor.role !== 'super_admin')
      throw new ForbiddenError(staffMessages.ownerProtected);
    return target;
  }

  const memberMissingOrStale = (hotelId: string, userId: string, expected: ExpectedVersion | undefined) =>
    missingOrStale(expected, () => deps.users.findInHotel(hotelId, userId), new NotFoundError(staffMessages.notFound));

  return {
    async list(hotelId: string, { limit, cursor, ...filter }: StaffFilter & PageRequest) {
      return mapPage(await deps.users.listInHotel(hotelId, filter, { limit, cursor }), toStaffMember);
    },

    /** With a password the account is ready to use; without one it waits for its invitation to be accepted. */
    async create(hotel: HotelRef, input: NewStaffInput) {
      assertAssignable(input.role);
      if (input.password) assertAcceptablePassword(input.password, { requireLetter: true });
      if (await deps.users.findByEmail(input.email)) throw new ConflictError(staffMessages.emailTaken, 'email_taken');
      const common = {
        hotel_id: hotel.id,
        name: input.name,
        email: input.email,
        role: input.role,
        phone: input.phone ?? null,
        position: input.position ?? '',
      };
      const emailTaken = () => new ConflictError(staffMessages.emailTaken, 'email_taken');
      return refusalsAs({ unique: { users_email_unique: emailTaken } }, async () => {
        if (input.password) {
          const user = await deps.users.insert({
            ...common,
            password_hash: await hashPassword(input.password),
            active: true,
            email_confirmed: true,
          });
          return toStaffMember(user);
        }
        return db.transaction(async (trx) => {
          const user = await deps.users.insert(
            {
              ...common,
              active: false,
              email_confirmed: false,
              invite_token: randomHexToken(32),
              invite_expires: new Date(Date.now() + config.invitationTtlSeconds * 1000),
              invitation_status: 'pending',
            },
            trx,
          );
          await enqueueOutbox(
            trx,
            startWorkflowMessage<StaffInvitationWorkflow>(
              'staffInvitation',
              accountWorkflowIds.staffInvitation(user.id),
              [{ userId: user.id, expiresInMs: config.invitationTtlSeconds * 1000 }],
              { HotelSlug: hotel.slug },
              { hotel: hotel.slug, role: input.role, invitee: initials(input.name) },
            ),
          );
          return toStaffMember(user);
        });
      });
    },

    /** Role changes apply at the member's next token refresh; deactivation ends every session at once. */
    async update(
      hotelId: string,
      userId: string,
      changes: StaffChanges,
      actor: AccessTokenPayload,
      expected?: ExpectedVersion,
    ) {
      const target = await findTarget(hotelId, userId, actor);
      assertAssignable(changes.role);
      const changesOwnAccess =
        (changes.role !== undefined && changes.role !== target.role) ||
        (changes.active !== undefined && changes.active !== target.active);
      if (target.id === actor.sub && changesOwnAccess) throw new BusinessRuleError(staffMessages.selfChange);
      return db.transaction(async (trx) => {
        const updated = await deps.users.updateInHotel(hotelId, userId, changes, trx, expected);
        if (!updated) throw await memberMissingOrStale(hotelId, userId, expected);
        if (changes.active === false) await deps.auth.endAllSessions(trx, userId);
        return toStaffMember(updated);
      });
    },

    async remove(hotelId: string, userId: string, actor: AccessTokenPayload, expected?: ExpectedVersion) {
      if (userId === actor.sub) throw new BusinessRuleError(staffMessages.selfDelete);
      await findTarget(hotelId, userId, actor);
      if (!(await deps.users.deleteInHotel(hotelId, userId, expected)))
        throw await memberMissingOrStale(hotelId, userId, expected);
    },
  };
}

export type StaffService = ReturnType<typeof createStaffService>;
