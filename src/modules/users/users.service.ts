import type { PageRequest } from '../../platform/db/keyset';
import type { Db, DbOrTrx } from '../../platform/db/knex';
import type { ExpectedVersion } from '../../platform/http/concurrency';
import type { NewUser, User, UserChanges } from './users.model';
import { usersRepository, type StaffFilter, type TokenColumn } from './users.repository';

/**
 * The accounts store that sign-in (auth) and staff management (staff) share. Look-ups by e-mail or token span hotels
 * (sign-in has no tenant yet); staff look-ups take the hotel first. Each call joins the caller's transaction when
 * given one.
 */
export function createUsersService(db: Db) {
  return {
    findById: (userId: string, conn: DbOrTrx = db) => usersRepository.findById(conn, userId),
    findByEmail: (email: string, conn: DbOrTrx = db) => usersRepository.findByEmail(conn, email),
    findByToken: (column: TokenColumn, token: string, conn: DbOrTrx = db) =>
      usersRepository.findByToken(conn, column, token),
    /** Applies `changes` only while the token is still the current one, so a link works exactly once. */
    updateByToken: (column: TokenColumn, token: string, changes: UserChanges, conn: DbOrTrx = db) =>
      usersRepository.updateByToken(conn, column, token, changes),
    insert: (user: NewUser, conn: DbOrTrx = db): Promise<User> => usersRepository.insert(conn, user),
    update: (userId: string, changes: UserChanges, conn: DbOrTrx = db) => usersRepository.update(conn, userId, changes),
    /** Voids every access token issued so far (they carry the previous version). */
    bumpSessionVersion: (userId: string, conn: DbOrTrx = db) => usersRepository.bumpSessionVersion(conn, userId),
    findAccess: (userId: string) => usersRepository.findAccess(db, userId),
    findInHotel: (hotelId: string, userId: string) => usersRepository.findInHotel(db, hotelId, userId),
    namesInHotel: (hotelId: string, userIds: string[]) => usersRepository.namesInHotel(db, hotelId, userIds),
    listInHotel: (hotelId: string, filter: StaffFilter, page: PageRequest) =>
      usersRepository.listInHotel(db, hotelId, filter, page),
    /** Applies `changes` only to the version `expected` names, when it names one (else touches nothing). */
    updateInHotel: (
      hotelId: string,
      userId: string,
      changes: UserChanges,
      conn: DbOrTrx = db,
      expected?: ExpectedVersion,
    ) => usersRepository.updateInHotel(conn, hotelId, userId, changes, expected),
    deleteInHotel: (hotelId: string, userId: string, expected?: ExpectedVersion) =>
      usersRepository.deleteInHotel(db, hotelId, userId, expected),
    /** Marks a still-pending invitation as expired once its time has passed; a no-op otherwise (idempotent). */
    expireInvitation: (userId: string) => usersRepository.expireInvitation(db, userId),
  };
}

export type UsersService = ReturnType<typeof createUsersService>;
