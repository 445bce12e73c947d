/**
 * A fake TTLock cloud speaking the open platform's API v3 (https://euopen.ttlock.com/document-pages/en/cloud), in
 * memory:
 *
 * - POST /oauth2/token: the password grant (username and the MD5 of the password) and the refresh_token grant, tokens
 *   living 90 days on the fake's clock; errcodes 10001 (bad client), 10007 (wrong password), 10011 (bad refresh token).
 * - /v3/lock/list (paging, lockAlias and groupId filters) and /v3/lock/detail, GET or form POST, each checking the app
 *   (10000), the `date` (-3 missing, 80000 beyond 5 minutes), the token (10003 unknown, 10004 expired); -1003 no lock.
 *   Refusals are HTTP 200 with `{ errcode, errmsg, description }`, as TTLock's.
 * - /v3/cardEncoder/getHotelInfo: a fixed hotelInfo per account; -4064 (the fake's code) for an account registered with
 *   `hotelCreated: false`.
 * - Two clouds: EU at the root, China under /cn (`chinaUrl`). An account answers on its own cloud only: the password
 *   grant elsewhere is 30008, its tokens elsewhere are unknown (10003, 10011).
 * - /_fake: test controls, see control-routes.ts, and fakeTTLockControl for a typed client.
 */
export { startFakeTTLock, type FakeTTLock, type FakeTTLockOptions } from './server';
export { fakeTTLockControl, type FakeTTLockAccount, type FakeTTLockControl } from './control-client';
export type { FakeCloud, FakeLock } from './state';
