import { BaseModel } from '../../platform/db/base-model';
import type { Role } from '../../platform/http/roles';

export type InvitationStatus = 'pending' | 'accepted' | 'expired';

export class User extends BaseModel {
  static override tableName = 'users';

  id!: string;
  hotel_id!: string | null;
  name!: string;
  email!: string;
  password_hash!: string | null;
  role!: Role;
  phone!: string | null;
  position!: string;
  active!: boolean;
  email_confirmed!: boolean;
  confirmation_token!: string | null;
  confirmation_sent_at!: Date | null;
  reset_token!: string | null;
  reset_token_expires!: Date | null;
  invite_token!: string | null;
  invite_expires!: Date | null;
  invitation_status!: InvitationStatus | null;
  /** Bumped by every revocation of the account's sessions (see the access guard). */
  session_version!: number;
  created_at!: Date;
}

export type NewUser = Pick<User, 'hotel_id' | 'name' | 'email' | 'role' | 'active' | 'email_confirmed'> &
  Partial<
    Pick<
      User,
      | 'password_hash'
      | 'phone'
      | 'position'
      | 'confirmation_token'
      | 'confirmation_sent_at'
      | 'invite_token'
      | 'invite_expires'
      | 'invitation_status'
    >
  >;

export type UserChanges = Partial<Omit<User, 'id' | 'hotel_id' | 'email' | 'created_at' | 'session_version'>>;
