import express, { type Request, type Router } from 'express';
import {
  dateNotCurrent,
  invalidAccount,
  invalidClient,
  invalidClientId,
  invalidGrant,
  invalidParameter,
  invalidRefreshToken,
  invalidToken,
  hotelNotCreated,
  lockNotFound,
  otherCloud,
} from './errors';
import {
  hotelInfoOf,
  TOKEN_LIFETIME_SECONDS,
  type FakeAccount,
  type FakeCloud,
  type FakeLock,
  type FakeTTLockState,
} from './state';

/** How far a call's `date` may be from the current time. */
const DATE_TOLERANCE_MS = 5 * 60_000;
const MAX_PAGE_SIZE = 1000;

type Params = Record<string, unknown>;

/**
 * /oauth2/token, /v3/lock/* and /v3/cardEncoder/getHotelInfo of one cloud, read from the query or a form body, as the
 * real cloud takes either. An account, and its tokens, answer only on the cloud it lives on.
 */
export function apiRoutes(state: FakeTTLockState, cloud: FakeCloud): Router {
  const router = express.Router();
  router.use(express.urlencoded({ extended: false }));
  const paramsOf = (request: Request): Params => ({
    ...(request.query as Params),
    ...((request.body ?? {}) as Params),
  });

  router.post('/oauth2/token', (request, response) => {
    const params = paramsOf(request);
    const clientId = String(params.clientId ?? '');
    if (!state.clients.has(clientId) || state.clients.get(clientId) !== params.clientSecret) throw invalidClient();
    const refreshing = params.grant_type === 'refresh_token';
    let account: FakeAccount | undefined;
    if (refreshing) {
      account = state.accountOfRefreshToken(String(params.refresh_token ?? ''));
      if (!account || account.clientId !== clientId || account.cloud !== cloud) throw invalidRefreshToken();
    } else {
      account = state.account(clientId, String(params.username ?? ''));
      if (account && account.cloud !== cloud) throw otherCloud();
      if (!account || account.passwordMd5 !== params.password) throw invalidAccount();
    }
    const { accessToken, refreshToken } = state.issue(account, refreshing ? String(params.refresh_token) : undefined);
    response.json({
      access_token: accessToken,
      refresh_token: refreshToken,
      expires_in: TOKEN_LIFETIME_SECONDS,
      scope: 'user,key,room',
      ...(refreshing ? {} : { uid: account.uid }),
    });
  });

  router.all('/v3/lock/list', (request, response) => {
    const params = paramsOf(request);
    const account = authenticate(state, params, cloud);
    const pageNo = integer(params.pageNo);
    const pageSize = integer(params.pageSize);
    if (pageNo === undefined || pageNo < 1 || pageSize === undefined || pageSize < 1 || pageSize > MAX_PAGE_SIZE) {
      throw invalidParameter();
    }
    const alias = typeof params.lockAlias === 'string' ? params.lockAlias.toLowerCase() : undefined;
    const groupId = integer(params.groupId);
    const matching = account.locks.filter(
      (lock) =>
        (alias === undefined || lock.lockAlias.toLowerCase().includes(alias)) &&
        (groupId === undefined || lock.groupId === groupId),
    );
    response.json({
      list: matching.slice((pageNo - 1) * pageSize, pageNo * pageSize).map(listed),
      pageNo,
      pageSize,
      pages: Math.ceil(matching.length / pageSize),
      total: matching.length,
    });
  });

  router.all('/v3/lock/detail', (request, response) => {
    const params = paramsOf(request);
    const account = authenticate(state, params, cloud);
    const lockId = integer(params.lockId);
    if (lockId === undefined) throw invalidParameter();
    const lock = account.locks.find((candidate) => candidate.lockId === lockId);
    if (!lock) throw lockNotFound();
    response.json({
      ...listed(lock),
      noKeyPwd: '1234567',
      adminPwd: 'ZmFrZS1hZG1pbi1jb2Rl',
      modelNum: 'SN9161-FAKE',
      hardwareRevision: '1.0',
      firmwareRevision: '6.0.0.000000',
      timezoneRawOffset: 3 * 60 * 60_000,
      autoLockTime: 5,
    });
  });

  router.all('/v3/cardEncoder/getHotelInfo', (request, response) => {
    const account = authenticate(state, paramsOf(request), cloud);
    if (!account.hotelCreated) throw hotelNotCreated();
    response.json({ hotelInfo: hotelInfoOf(account) });
  });

  return router;
}

/** The checks every /v3 call passes first, in the real cloud's order: the app, the date, the token. */
function authenticate(state: FakeTTLockState, params: Params, cloud: FakeCloud): FakeAccount {
  if (!state.clients.has(String(params.clientId ?? ''))) throw invalidClientId();
  const date = integer(params.date);
  if (date === undefined) throw invalidParameter();
  // The client's date comes from the real clock, so it is checked against that one, not the advanced fake clock.
  if (Math.abs(date - Date.now()) > DATE_TOLERANCE_MS) throw dateNotCurrent();
  const grant = state.grant(String(params.accessToken ?? ''));
  if (!grant || grant.account.clientId !== params.clientId || grant.account.cloud !== cloud) throw invalidToken();
  if (grant.expiresAt <= state.now()) throw invalidGrant();
  return grant.account;
}

/** What a lock list item holds, lockData included, as the real one does. */
function listed(lock: FakeLock) {
  return {
    lockName: `S31_${lock.lockMac.replaceAll(':', '').slice(-6).toLowerCase()}`,
    electricQuantity: 100,
    hasGateway: 1,
    featureValue: 'F44354CD5F3',
    lockData: `fake-lock-data-${lock.lockId}`,
    date: 1_700_000_000_000,
    ...lock,
  };
}

function integer(value: unknown): number | undefined {
  const parsed = typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value;
  return Number.isSafeInteger(parsed) ? (parsed as number) : undefined;
}
