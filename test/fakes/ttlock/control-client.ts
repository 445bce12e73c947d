import { controlCaller } from '../http';
import type { FakeCloud, FakeLock } from './state';

export interface FakeTTLockAccount {
  clientId: string;
  clientSecret: string;
  username: string;
  /** Plain; the fake keeps its MD5, as the client must send. */
  password: string;
  locks?: FakeLock[];
  /** Where the account lives (default EU): the other cloud refuses its password grant with 30008. */
  cloud?: FakeCloud;
  /** Whether it created a hotel for card issuing (default true): getHotelInfo is refused otherwise. */
  hotelCreated?: boolean;
}

export interface FakeTTLockControl {
  /** Registers the app and the account (again: a new password and locks); answers the account's uid. */
  registerAccount(account: FakeTTLockAccount): Promise<number>;
  /** Moves the fake's clock forward: tokens expire on it. */
  advanceClock(ms: number): Promise<void>;
}

/** A typed hand on the fake's test controls (/_fake), for tests. */
export function fakeTTLockControl(url: string): FakeTTLockControl {
  const post = controlCaller(url);
  const call = (path: string, body: unknown) => post('POST', path, body);
  return {
    async registerAccount(account) {
      return ((await call('/_fake/accounts', account)) as { uid: number }).uid;
    },
    async advanceClock(ms) {
      await call('/_fake/clock', { advance_ms: ms });
    },
  };
}
