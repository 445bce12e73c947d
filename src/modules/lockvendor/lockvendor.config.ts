import { decryptSecret, encryptSecret, type EncryptionKeys } from '../../platform/crypto';
import type { Db } from '../../platform/db/knex';
import { BusinessRuleError } from '../../platform/errors';
import type { ExpectedVersion } from '../../platform/http/concurrency';
import { lockMessages } from './lockvendor.messages';
import { configRepository } from './lockvendor.repository';
import type { LockConfig, LockConfigColumns, LockConfigInput, LockConfigRow } from './lockvendor.types';

/** `…` and the last 4 characters of a secret long enough to spare them (TTLock's are 32), else `…` alone. */
function hintOf(secret: string): string {
  return secret.length >= 16 ? `…${secret.slice(-4)}` : '…';
}

const SIGN_IN_FIELDS = {
  client_id: 'client_id',
  client_secret: 'client_secret_encrypted',
  username: 'username',
  password: 'password_encrypted',
} as const;

/** Refuses (422) a row that lacks something a sign-in needs, naming the fields in `errors`. */
export function assertComplete(row: LockConfigRow): void {
  const missing = Object.entries(SIGN_IN_FIELDS)
    .filter(([, column]) => !row[column])
    .map(([field]) => field);
  if (missing.length > 0)
    throw new BusinessRuleError(lockMessages.notConfigured, missing, 'lock_vendor_not_configured');
}

const NO_LOGIN = {
  access_token_encrypted: null,
  refresh_token_encrypted: null,
  token_expires_at: null,
  ttlock_uid: null,
} satisfies LockConfigColumns;

/**
 * The hotel's lock cloud settings as staff edit them. The client secret and the account's password go in encrypted
 * and never come out: answers say whether one is set (and the secret's last characters).
 */
export function createLockConfigs(db: Db, encryption: EncryptionKeys) {
  const seal = (secret: string | null | undefined) =>
    secret === undefined ? undefined : secret === null ? null : encryptSecret(secret, encryption);

  function present(row: LockConfigRow): LockConfig {
    const { client_secret_encrypted: secret, password_encrypted: password, ttlock_uid: uid, ...rest } = row;
    return {
      hotel_id: rest.hotel_id,
      client_id: rest.client_id,
      client_secret_set: secret !== null,
      client_secret_hint: secret === null ? null : hintOf(decryptSecret(secret, encryption)),
      username: rest.username,
      password_set: password !== null,
      api_server: rest.api_server,
      enabled: rest.enabled,
      token_expires_at: rest.token_expires_at,
      ttlock_uid: uid === null ? null : Number(uid),
      updated_at: rest.updated_at,
    };
  }

  /** A token belongs to the account it was had with: a new secret, password, account or server voids it. */
  function voidsLogin(current: LockConfigRow, input: LockConfigInput): boolean {
    return (
      input.client_secret !== undefined ||
      input.password !== undefined ||
      (input.client_id !== undefined && input.client_id !== current.client_id) ||
      (input.username !== undefined && input.username !== current.username) ||
      (input.api_server !== undefined && input.api_server !== current.api_server)
    );
  }

  return {
    get: async (hotelId: string) => present(await configRepository.get(db, hotelId)),

    /** Refuses (422) to enable the locks without all a sign-in needs; nothing is changed then. */
    update: (hotelId: string, input: LockConfigInput, expected?: ExpectedVersion): Promise<LockConfig> =>
      db.transaction(async (trx) => {
        const current = await configRepository.get(trx, hotelId, { forUpdate: true });
        const { client_secret: secret, password, ...plain } = input;
        const columns: LockConfigColumns = {
          ...plain,
          client_secret_encrypted: seal(secret),
          password_encrypted: seal(password),
          ...(voidsLogin(current, input) && NO_LOGIN),
        };
        const defined = Object.fromEntries(Object.entries(columns).filter(([, value]) => value !== undefined));
        if (defined.enabled ?? current.enabled) assertComplete({ ...current, ...defined });
        await configRepository.update(trx, hotelId, defined, expected);
        return present(await configRepository.get(trx, hotelId));
      }),
  };
}
