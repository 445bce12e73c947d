import type { Knex } from 'knex';
import { timingSafeEqual } from 'node:crypto';
import { randomHexToken, sha256Hex } from '../../platform/crypto';
import type { Db } from '../../platform/db/knex';
import type { ExpectedVersion } from '../../platform/http/concurrency';
import { settingsRepository } from './wifi.repository';
import type { WifiSettings, WifiSettingsChanges, WifiSettingsRow } from './wifi.types';

function present({ portal_secret_sha256: digest, ...row }: WifiSettingsRow): WifiSettings {
  return { ...row, portal_secret_set: digest !== null };
}

/** The secret of `Authorization: Bearer <secret>` is the hotel's, compared in constant time (as digests). */
export function portalSecretMatches(authorization: string | undefined, settings: WifiSettingsRow): boolean {
  const [scheme, secret] = authorization?.split(' ') ?? [];
  if (scheme?.toLowerCase() !== 'bearer' || !secret || !settings.portal_secret_sha256) return false;
  return timingSafeEqual(Buffer.from(sha256Hex(secret), 'hex'), Buffer.from(settings.portal_secret_sha256, 'hex'));
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
      const secret = randomHexToken(32);
      const stored = {
        portal_secret_sha256: sha256Hex(secret),
        portal_secret_hint: `…${secret.slice(-4)}`,
        portal_secret_created_at: new Date(),
      };
      await settingsRepository.update(db, hotelId, stored);
      return {
        portal_secret: secret,
        portal_secret_hint: stored.portal_secret_hint,
        portal_secret_created_at: stored.portal_secret_created_at,
      };
    },

    onHotelCreated: (trx: Knex.Transaction, hotelId: string) => settingsRepository.insertDefaults(trx, hotelId),
  };
}
