import type { Knex } from 'knex';
import type { Db } from '../../platform/db/knex';
import type { ExpectedVersion } from '../../platform/http/concurrency';
import { issueSecret, secretMatches } from '../../platform/issued-secrets';
import { settingsRepository } from './wifi.repository';
import type { WifiSettings, WifiSettingsChanges, WifiSettingsRow } from './wifi.types';

function present({ portal_secret_sha256: digest, ...row }: WifiSettingsRow): WifiSettings {
  return { ...row, portal_secret_set: digest !== null };
}

/** The secret of `Authorization: Bearer <secret>` is the hotel's, compared in constant time (as digests). */
export function portalSecretMatches(authorization: string | undefined, settings: WifiSettingsRow): boolean {
  const [scheme, secret] = authorization?.split(' ') ?? [];
  return secretMatches(scheme?.toLowerCase() === 'bearer' ? secret : undefined, settings.portal_secret_sha256);
}

/** The hotel's Wi-Fi settings as staff edit them, and the portal controller's secret. */
export function createWifiSettings(db: Db) {
  return {
    row: (hotelId: string) => settingsRepository.get(db, hotelId),

    get: async (hotelId: string) => present(await settingsRepository.get(db, hotelId)),

    update: (hotelId: string, changes: WifiSettingsChanges, expected?: ExpectedVersion) =>
      db.transaction(async (trx) => {
        await settingsRepository.update(trx, hotelId, changes, expected);
        return present(await settingsRepository.get(trx, hotelId));
      }),

    /** A new secret (the old one stops working at once); answered this once, kept as its digest. */
    async newPortalSecret(hotelId: string) {
      const issued = issueSecret();
      await settingsRepository.update(db, hotelId, {
        portal_secret_sha256: issued.sha256,
        portal_secret_hint: issued.hint,
        portal_secret_created_at: issued.createdAt,
      });
      return {
        portal_secret: issued.secret,
        portal_secret_hint: issued.hint,
        portal_secret_created_at: issued.createdAt,
      };
    },

    onHotelCreated: (trx: Knex.Transaction, hotelId: string) => settingsRepository.insertDefaults(trx, hotelId),
  };
}
