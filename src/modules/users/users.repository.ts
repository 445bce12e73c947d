import { pageOf, type Page, type PageRequest, type SortKey } from '../../platform/db/keyset';
import type { DbOrTrx } from '../../platform/db/knex';
import { atVersion } from '../../platform/db/version';
import type { ExpectedVersion } from '../../platform/http/concurrency';
import type { Role } from '../../platform/http/roles';
import { User, type NewUser, type UserChanges } from './users.model';

export type TokenColumn = 'confirmation_token' | 'reset_token' | 'invite_token';

export interface StaffFilter {
  role?: Role;
  active?: boolean;
}

/** Staff, oldest first. */
const STAFF_ORDER: SortKey[] = [
  { sql: 'created_at', type: 'timestamptz' },
  { sql: 'id', type: 'uuid' },
];

/** Account look-ups by e-mail or token span hotels (sign-in has no tenant yet); staff queries take `hotelId` first. */
export const usersRepository = {
  async findById(db: DbOrTrx, userId: string): Promise<User | undefined> {
    return User.query(db).findById(userId);
  },

  async findByEmail(db: DbOrTrx, email: string): Promise<User | undefined> {
    return User.query(db).findOne({ email });
  },

  async findByToken(db: DbOrTrx, column: TokenColumn, token: string): Promise<User | undefined> {
    return User.query(db).findOne({ [column]: token });
  },

  /** Applies `changes` only while the token is still the current one, so a link works exactly once. */
  async updateByToken(
    db: DbOrTrx,
    column: TokenColumn,
    token: string,
    changes: UserChanges,
  ): Promise<User | undefined> {
    const [user] = await User.query(db)
      .patch(changes)
      .where({ [column]: token })
      .returning('*');
    return user as User | undefined;
  },

  async insert(db: DbOrTrx, user: NewUser): Promise<User> {
    return User.query(db).insertAndFetch(user);
  },

  async update(db: DbOrTrx, userId: string, changes: UserChanges): Promise<User | undefined> {
    return User.query(db).patchAndFetchById(userId, changes);
  },

  /** Names and roles of these users of the hotel (who did what, in a booking's timeline). */
  namesInHotel(db: DbOrTrx, hotelId: string, userIds: string[]): Promise<Pick<User, 'id' | 'name' | 'role'>[]> {
    return db('users').where({ hotel_id: hotelId }).whereIn('id', userIds).select('id', 'name', 'role');
  },

  async findInHotel(db: DbOrTrx, hotelId: string, userId: string): Promise<User | undefined> {
    return User.query(db).findOne({ hotel_id: hotelId, id: userId });
  },

  async listInHotel(db: DbOrTrx, hotelId: string, filter: StaffFilter, page: PageRequest): Promise<Page<User>> {
    const query = db('users').select('*').where({ hotel_id: hotelId });
    if (filter.role) query.where({ role: filter.role });
    if (filter.active !== undefined) query.where({ active: filter.active });
    return pageOf(db, query, STAFF_ORDER, page);
  },

  async updateInHotel(
    db: DbOrTrx,
    hotelId: string,
    userId: string,
    changes: UserChanges,
    expected?: ExpectedVersion,
  ): Promise<User | undefined> {
    const [user] = await db<User>('users')
      .where({ hotel_id: hotelId, id: userId })
      .modify(atVersion(expected))
      .update({ ...changes, updated_at: db.fn.now() })
      .returning('*');
    return user;
  },

  async deleteInHotel(db: DbOrTrx, hotelId: string, userId: string, expected?: ExpectedVersion): Promise<boolean> {
    return (await db('users').where({ hotel_id: hotelId, id: userId }).modify(atVersion(expected)).delete()) > 0;
  },

  /** Voids every access token issued so far (they carry the previous version). */
  async bumpSessionVersion(db: DbOrTrx, userId: string): Promise<void> {
    await db('users').where({ id: userId }).increment('session_version', 1);
  },

  async findAccess(db: DbOrTrx, userId: string): Promise<Pick<User, 'active' | 'session_version'> | undefined> {
    return db('users').where({ id: userId }).first('active', 'session_version');
  },

  /** Marks a still-pending invitation as expired once its time has passed; a no-op otherwise (idempotent). */
  async expireInvitation(db: DbOrTrx, userId: string): Promise<boolean> {
    const count = await User.query(db)
      .patch({ invitation_status: 'expired', invite_token: null })
      .where({ id: userId, invitation_status: 'pending' })
      .where('invite_expires', '<=', db.fn.now());
    return count > 0;
  },
};
