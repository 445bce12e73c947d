import type { LockvendorConfig } from './lockvendor.env';
import {
  createTTLockClient,
  TTLockError,
  type TTLockApiServer,
  type TTLockCredentials,
  type TTLockHotelInfo,
  type TTLockPasswordGrant,
  type TTLockToken,
} from '../../integrations/ttlock';
import { decryptSecret, encryptSecret } from '../../platform/crypto';
import type { Db } from '../../platform/db/knex';
import { BusinessRuleError, ServiceUnavailableError } from '../../platform/errors';
import { assertComplete } from './lockvendor.config';
import { lockMessages, TOKEN_REFRESH_MARGIN_MS } from './lockvendor.messages';
import { configRepository } from './lockvendor.repository';
import { API_SERVERS, type LockConfigRow } from './lockvendor.types';

/** TTLock's codes for an access token it no longer takes (unknown, expired or revoked): sign in again and retry. */
const STALE_TOKEN_ERRCODES = new Set([10003, 10004]);
/** TTLock's code for an account that lives on the other cloud. */
const OTHER_CLOUD_ERRCODE = 30008;
const UNAVAILABLE_RETRY_AFTER_SECONDS = 30;

/**
 * A TTLock failure in this API's terms: a refusal (wrong password, unknown app, no hotel...) is final, 422; no answer
 * (network, timeout, 5xx, TTLock's own fault) may pass, 503 with Retry-After. The message is TTLockError's, for staff.
 */
export function lockVendorError(error: TTLockError): BusinessRuleError | ServiceUnavailableError {
  return error.retryable
    ? new ServiceUnavailableError('lock_vendor_unavailable', error.message, UNAVAILABLE_RETRY_AFTER_SECONDS)
    : new BusinessRuleError(error.message, [], 'lock_vendor_refused');
}

async function fromCloud<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw error instanceof TTLockError ? lockVendorError(error) : error;
  }
}

/**
 * A hotel's session with its lock cloud: signs in with the stored account (the client sends the password's MD5),
 * keeps the tokens encrypted, refreshes them a day before they expire (signing in again when the refresh token is
 * refused), and signs in again once when TTLock stops taking a token it gave.
 */
export function createLockCloud(db: Db, config: Pick<LockvendorConfig, 'encryption' | 'ttlock'>) {
  const { encryption } = config;
  const client = createTTLockClient({ baseUrlFor: (apiServer) => config.ttlock.apiUrls[apiServer] });
  const open = (envelope: string) => decryptSecret(envelope, encryption);
  const seal = (secret: string) => encryptSecret(secret, encryption);

  function grantOf(row: LockConfigRow, apiServer: TTLockApiServer = row.api_server): TTLockPasswordGrant {
    assertComplete(row);
    return {
      apiServer,
      clientId: row.client_id!,
      clientSecret: open(row.client_secret_encrypted!),
      username: row.username!,
      password: open(row.password_encrypted!),
    };
  }

  const credentialsOf = (grant: TTLockPasswordGrant, token: TTLockToken): TTLockCredentials => ({
    apiServer: grant.apiServer,
    clientId: grant.clientId,
    accessToken: token.accessToken,
  });

  async function remember(row: LockConfigRow, token: TTLockToken, apiServer?: TTLockApiServer): Promise<boolean> {
    return configRepository.storeLogin(db, row.hotel_id, row.updated_at, {
      access_token_encrypted: seal(token.accessToken),
      refresh_token_encrypted: seal(token.refreshToken),
      token_expires_at: token.expiresAt,
      ...(token.uid !== undefined && { ttlock_uid: token.uid }),
      ...(apiServer && { api_server: apiServer }),
    });
  }

  /** Signs in with the account's password on its server and keeps the tokens. */
  async function signIn(row: LockConfigRow) {
    const grant = grantOf(row);
    const token = await client.getToken(grant);
    await remember(row, token);
    return { token, credentials: credentialsOf(grant, token) };
  }

  /** The stored token while it has more than a day left; else refreshed, or failing that a new sign-in. */
  async function currentCredentials(row: LockConfigRow): Promise<TTLockCredentials> {
    const grant = grantOf(row);
    const expiresAt = row.token_expires_at?.getTime() ?? 0;
    if (row.access_token_encrypted && expiresAt - Date.now() > TOKEN_REFRESH_MARGIN_MS) {
      return { apiServer: grant.apiServer, clientId: grant.clientId, accessToken: open(row.access_token_encrypted) };
    }
    if (row.refresh_token_encrypted) {
      try {
        const token = await client.refreshToken({ ...grant, refreshToken: open(row.refresh_token_encrypted) });
        await remember(row, token);
        return credentialsOf(grant, token);
      } catch (error) {
        // A refresh token TTLock refuses (revoked, or of a changed app) is replaced by signing in; an outage is not.
        if (!(error instanceof TTLockError) || error.retryable) throw error;
      }
    }
    return (await signIn(row)).credentials;
  }

  /** Runs a call with the hotel's credentials, signing in again once if TTLock no longer takes the token. */
  const withCredentials = <T>(hotelId: string, call: (credentials: TTLockCredentials) => Promise<T>) =>
    fromCloud(async () => {
      const row = await configRepository.get(db, hotelId);
      try {
        return await call(await currentCredentials(row));
      } catch (error) {
        if (!(error instanceof TTLockError) || !STALE_TOKEN_ERRCODES.has(error.errcode ?? 0)) throw error;
        return call((await signIn(await configRepository.get(db, hotelId))).credentials);
      }
    });

  /** The first server of EU, China that accepts the account's password (30008 sends an account to the other). */
  async function firstAcceptingServer(row: LockConfigRow) {
    const refusals: TTLockError[] = [];
    for (const apiServer of API_SERVERS) {
      const grant = grantOf(row, apiServer);
      try {
        return { apiServer, token: await client.getToken(grant) };
      } catch (error) {
        if (!(error instanceof TTLockError) || error.retryable) throw error;
        refusals.push(error);
      }
    }
    // The telling refusal: not "use the other server" when the other one refused too.
    const telling = refusals.find((refusal) => refusal.errcode !== OTHER_CLOUD_ERRCODE);
    throw telling ?? new BusinessRuleError(lockMessages.noCloudAccepts, [], 'lock_vendor_refused');
  }

  return {
    withCredentials,

    /** Signs in with the account's password now and keeps the tokens: `{ expires_at, uid }`, never a token. */
    signIn: (hotelId: string) =>
      fromCloud(async () => {
        const { token } = await signIn(await configRepository.get(db, hotelId));
        return { expires_at: token.expiresAt, uid: token.uid! };
      }),

    /** End to end: a fresh sign-in, then the first page of locks. */
    test: (hotelId: string) =>
      fromCloud(async () => {
        const row = await configRepository.get(db, hotelId);
        const { credentials } = await signIn(row);
        const page = await client.listLocks(credentials, { pageNo: 1, pageSize: 20 });
        return { ok: true as const, api_server: row.api_server, locks_count: page.total };
      }),

    /** Which server the account lives on; with `save`, that server and the token it granted are stored. */
    findApiServer: (hotelId: string, save: boolean) =>
      fromCloud(async () => {
        const row = await configRepository.get(db, hotelId);
        const { apiServer, token } = await firstAcceptingServer(row);
        const saved = save && (await remember(row, token, apiServer));
        return { api_server: apiServer, saved };
      }),

    allLocks: (hotelId: string) => withCredentials(hotelId, (credentials) => client.allLocks(credentials)),

    hotelInfo: (hotelId: string): Promise<TTLockHotelInfo> =>
      withCredentials(hotelId, (credentials) => client.getHotelInfo(credentials)),
  };
}

export type LockCloud = ReturnType<typeof createLockCloud>;
