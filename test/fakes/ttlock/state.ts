import { createHash, randomBytes } from 'node:crypto';

/** A lock as registered by a test; list and detail answer these fields, plus the secrets a real lock carries. */
export interface FakeLock {
  lockId: number;
  lockMac: string;
  lockAlias: string;
  lockName?: string;
  electricQuantity?: number;
  hasGateway?: 0 | 1;
  groupId?: number;
  groupName?: string;
  buildingNumber?: number;
  floorNumber?: number;
}

/** The cloud an account lives on: the fake serves the EU one at its root and the Chinese one under /cn. */
export type FakeCloud = 'EU' | 'China';

export interface FakeAccount {
  uid: number;
  clientId: string;
  username: string;
  passwordMd5: string;
  locks: FakeLock[];
  cloud: FakeCloud;
  /** Whether the account created a hotel (card issuing): getHotelInfo answers only then. */
  hotelCreated: boolean;
}

export interface FakeAccountOptions {
  cloud?: FakeCloud;
  hotelCreated?: boolean;
}

interface Grant {
  account: FakeAccount;
  expiresAt: number;
}

/** What the real cloud answers as expires_in: 90 days. */
export const TOKEN_LIFETIME_SECONDS = 90 * 24 * 60 * 60;

export class FakeTTLockState {
  /** clientId -> clientSecret */
  readonly clients = new Map<string, string>();
  private readonly accounts = new Map<string, FakeAccount>();
  private readonly accessTokens = new Map<string, Grant>();
  private readonly refreshTokens = new Map<string, FakeAccount>();
  private clockOffsetMs = 0;
  private lastUid = 1000;

  /** The fake's clock: the real one moved forward by POST /_fake/clock. */
  now(): number {
    return Date.now() + this.clockOffsetMs;
  }

  advanceClock(ms: number): void {
    this.clockOffsetMs += ms;
  }

  /** Registers the account, or replaces its password, locks and options; answers its uid. */
  register(
    clientId: string,
    clientSecret: string,
    username: string,
    password: string,
    locks: FakeLock[],
    { cloud = 'EU', hotelCreated = true }: FakeAccountOptions = {},
  ): number {
    this.clients.set(clientId, clientSecret);
    const key = accountKey(clientId, username);
    const uid = this.accounts.get(key)?.uid ?? ++this.lastUid;
    this.accounts.set(key, { uid, clientId, username, passwordMd5: md5(password), locks, cloud, hotelCreated });
    return uid;
  }

  account(clientId: string, username: string): FakeAccount | undefined {
    return this.accounts.get(accountKey(clientId, username));
  }

  /**
   * A new access token, with a new refresh token or the one it was refreshed with: the documented refresh answers the
   * refresh token it was given, which lives 10 years.
   */
  issue(account: FakeAccount, refreshToken = randomBytes(16).toString('hex')) {
    const accessToken = randomBytes(16).toString('hex');
    this.accessTokens.set(accessToken, { account, expiresAt: this.now() + TOKEN_LIFETIME_SECONDS * 1000 });
    this.refreshTokens.set(refreshToken, account);
    return { accessToken, refreshToken };
  }

  grant(accessToken: string): Grant | undefined {
    return this.accessTokens.get(accessToken);
  }

  accountOfRefreshToken(refreshToken: string): FakeAccount | undefined {
    return this.refreshTokens.get(refreshToken);
  }
}

/** The same text for an account every time, shaped like the real one (base64 of a list of small numbers). */
export function hotelInfoOf(account: FakeAccount): string {
  const digest = createHash('sha256').update(`${account.clientId}\n${account.username}`).digest();
  return Buffer.from([...digest].map((byte) => byte - 128).join(',')).toString('base64');
}

export function md5(text: string): string {
  return createHash('md5').update(text, 'utf8').digest('hex');
}

const accountKey = (clientId: string, username: string) => `${clientId}\n${username}`;
