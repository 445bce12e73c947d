import type { SharedSettings } from '../../platform/config';
import { decryptSecret, encryptSecret, type EncryptionKeys } from '../../platform/crypto';
import { refusalsAs } from '../../platform/db/base-model';
import { mapPage, type PageRequest } from '../../platform/db/keyset';
import { reencryptEnvelopes } from '../../platform/db/rewrite-batches';
import type { Db, DbOrTrx } from '../../platform/db/knex';
import { ConflictError, ValidationError } from '../../platform/errors';
import type { ExpectedVersion } from '../../platform/http/concurrency';
import { assertPublicDestination } from '../../platform/outbound';
import { hotelRecords } from './payments.records';
import { gatewaysRepository } from './payments.repository';
import type {
  GatewayColumns,
  GatewayInput,
  PaymentGateway,
  PaymentGatewayRow,
  YooKassaGateway,
} from './payments.types';

export const gatewayMessages = {
  notFound: 'Платёжный шлюз не найден',
  providerTaken: 'Шлюз ЮKassa для этого отеля уже подключён: измените или удалите его',
  noneActive: 'Онлайн-оплата не настроена: добавьте активный платёжный шлюз YooKassa',
};

const HINT_LENGTH = 4;

/** `…` and the last characters of a secret: at most 4, and never more than a quarter of it, so a short key stays unsaid. */
export function secretHint(secret: string): string {
  const characters = [...secret];
  const shown = Math.min(HINT_LENGTH, Math.floor(characters.length / 4));
  return `…${characters.slice(characters.length - shown).join('')}`;
}

function sealSecret(secret: string, encryption: EncryptionKeys) {
  return { secret_key_encrypted: encryptSecret(secret, encryption), secret_key_id: encryption.currentKeyId };
}

/** Re-encrypts the gateways' secret keys still under an older key with the current one (`npm run rotate-keys`). */
export function reencryptGatewaySecrets(
  db: Db,
  encryption: EncryptionKeys,
  batchSize = 500,
  options: { hotelId?: string } = {},
): Promise<{ reencrypted: number }> {
  return reencryptEnvelopes(
    db,
    encryption,
    {
      lockUnderOtherKey: (trx, selection) => gatewaysRepository.lockUnderOtherKey(trx, selection),
      envelopeOf: (row) => ({
        envelope: row.secret_key_encrypted,
        keyId: row.secret_key_id,
        what: `payment gateway ${row.id}: its secret key`,
      }),
      write: (trx, row, envelope, keyId) =>
        gatewaysRepository.setSecret(trx, row.hotel_id, row.id, {
          secret_key_encrypted: envelope,
          secret_key_id: keyId,
        }),
    },
    batchSize,
    options.hotelId,
  );
}

/**
 * A hotel's online payment gateways (one per provider). The secret key goes in encrypted under the current key and
 * never comes out to staff: answers say only that one is set and show its last characters.
 */
export function createGatewaysService(db: Db, config: Pick<SharedSettings, 'encryption' | 'allowPrivateOutbound'>) {
  const { encryption } = config;

  function present(row: PaymentGatewayRow): PaymentGateway {
    const { secret_key_encrypted: envelope, secret_key_id: _keyId, ...visible } = row;
    return { ...visible, secret_key_set: true, secret_key_hint: secretHint(decryptSecret(envelope, encryption)) };
  }

  /** The payer's browser goes to the return address: never one inside this service's networks (400, nothing saved). */
  async function assertPublicReturnUrl(url: string | null | undefined): Promise<void> {
    if (!url) return;
    try {
      await assertPublicDestination(url, { allowPrivate: config.allowPrivateOutbound, allowUnresolved: true });
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      throw new ValidationError(error.message, [{ path: 'body.return_url', message: error.message }]);
    }
  }

  async function toColumns(input: GatewayInput): Promise<GatewayColumns> {
    const { secret_key: secret, ...settings } = input;
    await assertPublicReturnUrl(settings.return_url);
    return secret === undefined ? settings : { ...settings, ...sealSecret(secret, encryption) };
  }

  const conflictsAsErrors = <T>(write: () => Promise<T>) =>
    refusalsAs(
      { unique: { payment_gateways_hotel_id_provider_unique: () => new ConflictError(gatewayMessages.providerTaken) } },
      write,
    );

  const gatewayRecords = hotelRecords(db, gatewaysRepository, gatewayMessages.notFound);

  return {
    list: async (hotelId: string, { limit, cursor }: PageRequest) =>
      mapPage(await gatewaysRepository.list(db, hotelId, { limit, cursor }), present),

    get: async (hotelId: string, id: string) => present(await gatewayRecords.get(hotelId, id)),

    async create(hotelId: string, input: GatewayInput): Promise<PaymentGateway> {
      const columns = await toColumns(input);
      return present(await conflictsAsErrors(() => gatewaysRepository.insert(db, hotelId, columns)));
    },

    async update(hotelId: string, id: string, input: GatewayInput, expected?: ExpectedVersion) {
      const columns = await toColumns(input);
      return present(await conflictsAsErrors(() => gatewayRecords.update(hotelId, id, columns, expected)));
    },

    remove: gatewayRecords.remove,

    /** The hotel's active YooKassa gateway with its secret key decrypted, for the payment flows; undefined without one. */
    async activeYooKassa(hotelId: string, conn: DbOrTrx = db): Promise<YooKassaGateway | undefined> {
      const row = await gatewaysRepository.active(conn, hotelId, 'yookassa');
      return (
        row && {
          gatewayId: row.id,
          shopId: row.shop_id,
          secretKey: decryptSecret(row.secret_key_encrypted, encryption),
          autoConfirmOnPayment: row.auto_confirm_on_payment,
          testMode: row.test_mode,
          returnUrl: row.return_url,
        }
      );
    },

    /** Refuses (400) a return address inside this service's networks: for every request that carries one. */
    assertPublicReturnUrl,
  };
}

export type GatewaysService = ReturnType<typeof createGatewaysService>;
