/** TTLock keeps mainland Chinese accounts and all others on separate clouds; an account answers only on its own. */
export type TTLockApiServer = 'EU' | 'China';

/** The application's keys from the TTLock open platform, and the cloud its accounts live on. */
export interface TTLockApp {
  apiServer: TTLockApiServer;
  clientId: string;
  clientSecret: string;
}

/** A TTLock app account (not the developer account): the one that added the hotel's locks. */
export interface TTLockPasswordGrant extends TTLockApp {
  username: string;
  /** As typed by the user; the client sends only its MD5, as the API wants. */
  password: string;
}

export interface TTLockRefreshGrant extends TTLockApp {
  refreshToken: string;
}

export interface TTLockToken {
  accessToken: string;
  /** Valid for years: a new access token is had with it, without the account's password. */
  refreshToken: string;
  /** Reckoned on this machine's clock from the answer's lifetime (90 days by default). */
  expiresAt: Date;
  /** The TTLock user id; only the password grant answers it. */
  uid?: number;
}

/** What every lock call carries besides its own parameters. */
export interface TTLockCredentials {
  apiServer: TTLockApiServer;
  clientId: string;
  accessToken: string;
}

export interface TTLockLockFilter {
  /** Fuzzy match on the lock's alias (the room name staff gave it in the TTLock app). */
  lockAlias?: string;
  /** Locks of one group, as grouped in the TTLock app. */
  groupId?: number;
}

export interface TTLockPageRequest extends TTLockLockFilter {
  /** From 1. */
  pageNo: number;
  /** At most 1000. */
  pageSize: number;
}

export interface TTLockPage<T> {
  list: T[];
  pageNo: number;
  pageSize: number;
  pages: number;
  total: number;
}

/** A lock as listed, with what a hotel maps rooms by: the alias, the MAC written on the lock, building and floor. */
export interface TTLockLock {
  lockId: number;
  /** The Bluetooth name, e.g. S31_c18c9c. */
  lockName: string;
  lockAlias: string;
  lockMac: string;
  /** Battery, percent. */
  electricQuantity?: number;
  hasGateway?: boolean;
  groupId?: number;
  groupName?: string;
  /** Set for locks of a hotel set up in TTLock (TTHotel): the numbers written to hotel cards. */
  buildingNumber?: number;
  floorNumber?: number;
  /** When the lock was added, ms since the epoch. */
  initializedAt?: number;
}

export interface TTLockLockDetail extends TTLockLock {
  modelNum?: string;
  hardwareRevision?: string;
  firmwareRevision?: string;
  /** The lock's time zone as an offset from UTC, ms. */
  timezoneRawOffset?: number;
  /** Seconds before the lock locks itself again; -1 when it does not. */
  autoLockTime?: number;
}

/** What a card encoder needs to write the hotel's cards (opaque to us), and until when to use it. */
export interface TTLockHotelInfo {
  hotelInfo: string;
  expiresAt: Date;
}

/** TTLock's answer to a refused call: HTTP 200 with a non-zero errcode. */
export interface TTLockErrorBody {
  errcode: number;
  errmsg?: string;
  description?: string;
}
