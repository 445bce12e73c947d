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

export interface FakeAccount {
  uid: number;
  clientId: string;
  username: string;
  passwordMd5: string;
  locks: FakeLock[];
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

  /** Registers the account, or replaces its password and locks; answers its uid. */
  register(clientId: string, clientSecret: string, username: string, password: string, locks: FakeLock[]): number {
    this.clients.set(clientId, clientSecret);
    const key = accountKey(clientId, username);
    const uid = this.accounts.get(key)?.uid ?? ++this.lastUid;
    this.accounts.set(key, { uid, clientId, username, passwordMd5: md5(password), locks });
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

export function md5(text: string): string {
  return createHash('md5').update(text, 'utf8').digest('hex');
}

const accountKey = (clientId: string, username: string) => `${clientId}\n${username}`;
