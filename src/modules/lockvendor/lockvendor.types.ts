import type { TTLockApiServer } from '../../integrations/ttlock';

export const API_SERVERS = ['EU', 'China'] as const satisfies readonly TTLockApiServer[];

/** A hotel's row: the secrets only as envelopes (src/platform/crypto.ts), which name their key. */
export interface LockConfigRow {
  hotel_id: string;
  client_id: string | null;
  client_secret_encrypted: string | null;
  username: string | null;
  password_encrypted: string | null;
  api_server: TTLockApiServer;
  enabled: boolean;
  access_token_encrypted: string | null;
  refresh_token_encrypted: string | null;
  token_expires_at: Date | null;
  /** int8: node-postgres reads it as text. */
  ttlock_uid: string | null;
  updated_at: Date;
}

/** What staff see: that a secret is set, never the secret. */
export interface LockConfig {
  hotel_id: string;
  client_id: string | null;
  client_secret_set: boolean;
  client_secret_hint: string | null;
  username: string | null;
  password_set: boolean;
  api_server: TTLockApiServer;
  enabled: boolean;
  token_expires_at: Date | null;
  ttlock_uid: number | null;
  updated_at: Date;
}

/** A change by staff; `null` clears a field. */
export interface LockConfigInput {
  client_id?: string | null;
  client_secret?: string | null;
  username?: string | null;
  password?: string | null;
  api_server?: TTLockApiServer;
  enabled?: boolean;
}

export type EncryptedColumn =
  'client_secret_encrypted' | 'password_encrypted' | 'access_token_encrypted' | 'refresh_token_encrypted';

export const ENCRYPTED_COLUMNS: readonly EncryptedColumn[] = [
  'client_secret_encrypted',
  'password_encrypted',
  'access_token_encrypted',
  'refresh_token_encrypted',
];

export type LockConfigColumns = Partial<Omit<LockConfigRow, 'hotel_id' | 'updated_at'>>;

/** The tokens of one sign-in, sealed, and what comes with them. */
export interface StoredLogin {
  access_token_encrypted: string;
  refresh_token_encrypted: string;
  token_expires_at: Date;
  ttlock_uid?: number;
  api_server?: TTLockApiServer;
}

export interface RoomLock {
  id: string;
  hotel_id: string;
  /** Upper-case, colon-separated: `AA:BB:CC:DD:EE:FF`. */
  lock_mac: string;
  room_id: string | null;
  build_no: number;
  floor_no: number;
  lock_id: number | null;
  lock_alias: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface RoomLockInput {
  lock_mac: string;
  room_id: string | null;
  build_no: number;
  floor_no: number;
  lock_id?: number | null;
  lock_alias?: string | null;
}

/** A lock of the account as the cloud lists it, with the room our mapping puts it on. */
export interface CloudLock {
  lock_id: number;
  lock_name: string;
  lock_alias: string;
  lock_mac: string;
  battery: number | null;
  has_gateway: boolean | null;
  build_no: number | null;
  floor_no: number | null;
  room_id: string | null;
  room_lock_id: string | null;
}
