import { uniqueViolation } from '../../platform/db/base-model';
import type { DbOrTrx } from '../../platform/db/knex';
import type { ModuleContext } from '../../platform/modules';
import type { AuthSettings } from './auth.env';
import { enqueueOutbox, startWorkflowMessage } from '../../platform/db/outbox';
import { initials } from '../../platform/temporal/memo';
import { randomHexToken, sha256Hex } from '../../platform/crypto';
import { ConflictError, ForbiddenError, UnauthorizedError, ValidationError } from '../../platform/errors';
import type { AccountAccess } from '../../platform/http/access-guard';
import { signAccessToken, type AccessTokenPayload } from '../../platform/http/access-token';
import {
  accountWorkflowIds,
  invitationAcceptedSignal,
  type AccountEmailPurpose,
  type AccountEmailWorkflow,
  type AccountRequestWorkflow,
} from '../../../workflows/contracts/accounts';
import type { HotelsService } from '../hotels';
import type { User, UsersService } from '../users';
import { assertAcceptablePassword, hashPassword, verifyPassword } from './auth.passwords';
import { accountRequestsRepository, sessionsRepository } from './auth.repository';

export const authMessages = {
  invalidCredentials: 'Неверный email или пароль',
  emailNotConfirmed: 'Email не подтверждён. Проверьте почту и перейдите по ссылке.',
  emailTaken: 'Пользователь с таким email уже существует',
  invalidLink: 'Ссылка недействительна или истекла',
  noRefreshToken: 'No refresh token',
  invalidRefreshToken: 'Invalid or expired refresh token',
  inactiveAccount: 'Account inactive or not found',
  registered: 'Регистрация прошла успешно. Проверьте почту, чтобы подтвердить email.',
};

const CONFIRMATION_TTL_MS = 24 * 3600 * 1000;
const RESET_TTL_MS = 3600 * 1000;
const SLUG_ATTEMPTS = 5;

export interface RegisterInput {
  hotel_name: string;
  address: string;
  contact: string;
  email: string;
  phone: string;
  password: string;
}

/** The camelCase `user` object of login and accept-invite. */
export interface SessionUser {
  id: string;
  email: string;
  name: string;
  role: User['role'];
  hotelId: string | null;
  hotelSlug: string | null;
}

export interface IssuedSession {
  accessToken: string;
  refreshToken: string;
  user: SessionUser;
}

export type ConfirmEmailOutcome = 'confirmed' | 'invalid_token' | 'token_expired';

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export interface AuthDependencies {
  users: UsersService;
  hotels: Pick<HotelsService, 'find' | 'create'>;
}

export function createAuthService(
  { db, config, hotelCreated }: ModuleContext<AuthSettings>,
  { users, hotels }: AuthDependencies,
) {
  async function tokenPayload(conn: DbOrTrx, user: User): Promise<AccessTokenPayload> {
    const hotel = user.hotel_id ? await hotels.find(user.hotel_id, conn) : undefined;
    return {
      sub: user.id,
      email: user.email,
      name: user.name,
      role: user.role,
      hotelId: user.hotel_id,
      hotelSlug: hotel?.slug ?? null,
      sv: user.session_version,
    };
  }

  function accessToken(payload: AccessTokenPayload): string {
    return signAccessToken(payload, config.jwtSecret, config.accessTokenTtlSeconds);
  }

  async function issueSession(conn: DbOrTrx, user: User): Promise<IssuedSession> {
    const payload = await tokenPayload(conn, user);
    const refreshToken = randomHexToken(40);
    await sessionsRepository.insert(conn, {
      userId: user.id,
      tokenHash: sha256Hex(refreshToken),
      payload,
      ttlDays: config.refreshTokenTtlDays,
    });
    const { sub, sv: _sessionVersion, ...rest } = payload;
    return { accessToken: accessToken(payload), refreshToken, user: { id: sub, ...rest } };
  }

  function enqueueAccountEmail(conn: DbOrTrx, purpose: AccountEmailPurpose, user: User, hotelSlug: string, at: Date) {
    return enqueueOutbox(
      conn,
      startWorkflowMessage<AccountEmailWorkflow>(
        'accountEmail',
        accountWorkflowIds.accountEmail(purpose, user.id, at.getTime()),
        [{ purpose, userId: user.id }],
        { HotelSlug: hotelSlug },
        { hotel: hotelSlug, purpose, user: initials(user.name) },
      ),
    );
  }

  async function hotelSlugOf(conn: DbOrTrx, user: User): Promise<string> {
    const hotel = user.hotel_id ? await hotels.find(user.hotel_id, conn) : undefined;
    return hotel?.slug ?? '';
  }

  /** Refresh sessions are deleted and every access token issued so far stops opening anything, at once. */
  async function endAllSessions(conn: DbOrTrx, userId: string): Promise<void> {
    await sessionsRepository.deleteAllForUser(conn, userId);
    await users.bumpSessionVersion(userId, conn);
  }

  /** One attempt at the registration transaction; a slug taken concurrently surfaces as a unique violation. */
  function registerOnce(input: RegisterInput, email: string, passwordHash: string) {
    return db.transaction(async (trx) => {
      const hotel = await hotels.create(trx, { name: input.hotel_name, address: input.address, phone: input.phone });
      const sentAt = new Date();
      const user = await users.insert(
        {
          hotel_id: hotel.id,
          name: input.contact,
          email,
          password_hash: passwordHash,
          role: 'hotel_admin',
          phone: input.phone,
          active: true,
          email_confirmed: false,
          confirmation_token: randomHexToken(32),
          confirmation_sent_at: sentAt,
        },
        trx,
      );
      await hotelCreated(trx, hotel.id);
      await enqueueAccountEmail(trx, 'confirmation', user, hotel.slug, sentAt);
    });
  }

  return {
    async register(input: RegisterInput): Promise<void> {
      assertAcceptablePassword(input.password, { requireLetter: true });
      const email = normalizeEmail(input.email);
      if (await users.findByEmail(email)) throw new ConflictError(authMessages.emailTaken, 'email_taken');
      const passwordHash = await hashPassword(input.password);
      for (let attempt = 1; ; attempt++) {
        try {
          await registerOnce(input, email, passwordHash);
          return;
        } catch (error) {
          const constraint = uniqueViolation(error);
          if (constraint === 'users_email_unique') throw new ConflictError(authMessages.emailTaken, 'email_taken');
          if (constraint !== 'hotels_slug_unique' || attempt === SLUG_ATTEMPTS) throw error;
        }
      }
    },

    async confirmEmail(token: string | undefined): Promise<ConfirmEmailOutcome> {
      const user = token ? await users.findByToken('confirmation_token', token) : undefined;
      if (!user || user.email_confirmed) return 'invalid_token';
      const sentAt = user.confirmation_sent_at?.getTime() ?? 0;
      if (Date.now() - sentAt > CONFIRMATION_TTL_MS) return 'token_expired';
      const confirmed = await users.updateByToken('confirmation_token', token!, {
        email_confirmed: true,
        confirmation_token: null,
      });
      return confirmed ? 'confirmed' : 'invalid_token';
    },

    async login(rawEmail: string, password: string): Promise<IssuedSession> {
      const user = await users.findByEmail(normalizeEmail(rawEmail));
      const passwordMatches = await verifyPassword(password, user?.password_hash);
      if (!user || !passwordMatches)
        throw new UnauthorizedError(authMessages.invalidCredentials, 'invalid_credentials');
      if (!user.email_confirmed) throw new ForbiddenError(authMessages.emailNotConfirmed, 'email_not_confirmed');
      return issueSession(db, user);
    },

    /** Re-reads the account so role and hotel changes apply; an inactive or deleted account ends the session. */
    async refresh(refreshToken: string | undefined): Promise<string> {
      if (!refreshToken) throw new UnauthorizedError(authMessages.noRefreshToken, 'no_refresh_token');
      const tokenHash = sha256Hex(refreshToken);
      const session = await sessionsRepository.findValid(db, tokenHash);
      if (!session) throw new UnauthorizedError(authMessages.invalidRefreshToken, 'invalid_refresh_token');
      const user = await users.findById(session.user_id);
      if (!user || !user.active) {
        if (user) await sessionsRepository.deleteAllForUser(db, user.id);
        else await sessionsRepository.deleteByHash(db, tokenHash);
        throw new UnauthorizedError(authMessages.inactiveAccount, 'account_inactive');
      }
      const payload = await tokenPayload(db, user);
      await sessionsRepository.updatePayload(db, session.id, payload);
      return accessToken(payload);
    },

    async logout(refreshToken: string | undefined): Promise<void> {
      if (refreshToken) await sessionsRepository.deleteByHash(db, sha256Hex(refreshToken));
    },

    /**
     * resend-confirmation and forgot-password: the request only records what was asked (the same work, in the same
     * time, whether or not the address has an account), and a workflow does the rest off the request path.
     */
    async requestAccountEmail(purpose: AccountEmailPurpose, rawEmail: string): Promise<void> {
      await db.transaction(async (trx) => {
        const requestId = await accountRequestsRepository.insert(trx, purpose, normalizeEmail(rawEmail));
        await enqueueOutbox(
          trx,
          startWorkflowMessage<AccountRequestWorkflow>(
            'accountRequest',
            accountWorkflowIds.accountRequest(requestId),
            [{ requestId }],
            {},
            { purpose },
          ),
        );
      });
    },

    /**
     * The workflow's step, once per request (the row is taken in the same transaction): only a registered,
     * unconfirmed account gets a fresh confirmation link; only a confirmed one a reset link (valid 1 hour).
     */
    async handleAccountRequest(requestId: string): Promise<'link_sent' | 'nothing_to_send'> {
      return db.transaction(async (trx) => {
        const request = await accountRequestsRepository.take(trx, requestId);
        const user = request && (await users.findByEmail(request.email, trx));
        if (!request || !user) return 'nothing_to_send';
        const at = new Date();
        if (request.purpose === 'confirmation') {
          if (user.email_confirmed || !user.password_hash) return 'nothing_to_send';
          await users.update(
            user.id,
            {
              confirmation_token: randomHexToken(32),
              confirmation_sent_at: at,
            },
            trx,
          );
        } else {
          if (!user.email_confirmed) return 'nothing_to_send';
          const expires = new Date(at.getTime() + RESET_TTL_MS);
          await users.update(user.id, { reset_token: randomHexToken(32), reset_token_expires: expires }, trx);
        }
        await enqueueAccountEmail(trx, request.purpose, user, await hotelSlugOf(trx, user), at);
        return 'link_sent';
      });
    },

    /** Replaces the password and signs the account out everywhere. */
    async resetPassword(token: string, password: string): Promise<void> {
      assertAcceptablePassword(password, { requireLetter: true });
      const user = await users.findByToken('reset_token', token);
      if (!user || !user.reset_token_expires || user.reset_token_expires.getTime() < Date.now()) {
        throw new ValidationError(authMessages.invalidLink);
      }
      const passwordHash = await hashPassword(password);
      await db.transaction(async (trx) => {
        const changed = await users.updateByToken(
          'reset_token',
          token,
          {
            password_hash: passwordHash,
            reset_token: null,
            reset_token_expires: null,
          },
          trx,
        );
        if (!changed) throw new ValidationError(authMessages.invalidLink);
        await endAllSessions(trx, user.id);
      });
    },

    async acceptInvite(token: string, password: string): Promise<IssuedSession> {
      assertAcceptablePassword(password, { requireLetter: false });
      const user = await users.findByToken('invite_token', token);
      if (!user || !user.invite_expires || user.invite_expires.getTime() < Date.now()) {
        throw new ValidationError(authMessages.invalidLink);
      }
      const passwordHash = await hashPassword(password);
      return db.transaction(async (trx) => {
        const accepted = await users.updateByToken(
          'invite_token',
          token,
          {
            password_hash: passwordHash,
            active: true,
            email_confirmed: true,
            invite_token: null,
            invite_expires: null,
            invitation_status: 'accepted',
          },
          trx,
        );
        if (!accepted) throw new ValidationError(authMessages.invalidLink);
        await enqueueOutbox(trx, {
          kind: 'signalWorkflow',
          workflowId: accountWorkflowIds.staffInvitation(user.id),
          signal: invitationAcceptedSignal.name,
          args: [],
        });
        return issueSession(trx, accepted);
      });
    },

    endAllSessions,

    /** Sessions past their lifetime can never refresh again; removing them keeps the table small. */
    purgeExpiredSessions: () => sessionsRepository.deleteExpired(db),

    /** "Log out everywhere": every device of the account must sign in again. */
    async logoutEverywhere(userId: string): Promise<void> {
      await db.transaction((trx) => endAllSessions(trx, userId));
    },

    /** What the access guard checks every token against. */
    async accessOf(userId: string): Promise<AccountAccess | undefined> {
      const access = await users.findAccess(userId);
      return access && { active: access.active, sessionVersion: access.session_version };
    },

    /**
     * The token's account, or null when it is gone or inactive. An active account whose sessions were revoked after
     * the token was signed is a 401: the guard may have let the token in on a cached "inactive" that a reactivation
     * has just ended, and reactivation never revives a token.
     */
    async me({ sub: userId, sv: sessionVersion }: Pick<AccessTokenPayload, 'sub' | 'sv'>) {
      const user = await users.findById(userId);
      if (!user || !user.active) return null;
      if (user.session_version !== sessionVersion) throw new UnauthorizedError();
      return {
        id: user.id,
        email: user.email,
        name: user.name,
        role: user.role,
        hotel_id: user.hotel_id,
        created_at: user.created_at,
        hotel_slug: await hotelSlugOf(db, user).then((slug) => slug || null),
      };
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
