import type { SharedSettings } from '../../platform/config';
import { encryptSecret } from '../../platform/crypto';
import type { Knex } from 'knex';
import type { Db, DbOrTrx } from '../../platform/db/knex';
import { NotFoundError } from '../../platform/errors';
import type { HotelRef } from '../../platform/http/route';
import { assertVersion, type ExpectedVersion } from '../../platform/http/concurrency';
import { assertPublicDestination } from '../../platform/outbound';
import type { Hotel, HotelChanges } from './hotels.model';
import { hotelsRepository } from './hotels.repository';
import { assertRequisites, REQUISITE_FIELDS } from './hotels.requisites';
import { settingsRepository, type HotelSettingsChanges, type HotelSettingsRow } from './hotels.settings';
import { firstFreeSlug, slugify } from './hotels.slug';

export type SettingsChanges = Omit<HotelSettingsChanges, 'smtp_password_encrypted'> &
  Pick<HotelChanges, 'check_in_time' | 'check_out_time'> & { smtp_password?: string | null };

const notFound = 'Отель не найден';

const MAX_REMEMBERED_SLUGS = 10_000;

export function createHotelsService(db: Db, config: SharedSettings) {
  const hotelsBySlug = new Map<string, HotelRef>();
  async function getHotel(hotelId: string) {
    const hotel = await hotelsRepository.findById(db, hotelId);
    if (!hotel) throw new NotFoundError(notFound);
    return hotel;
  }

  /** The settings show the hotel's check-in and check-out times too: they change whenever either row does. */
  function settingsVersion(hotel: Hotel, settings: HotelSettingsRow): Date {
    return hotel.updated_at! > settings.updated_at ? hotel.updated_at! : settings.updated_at;
  }

  /** Settings as staff see them: the SMTP password never leaves the server, only whether one is set. */
  function present(hotel: Hotel, settings: HotelSettingsRow) {
    const { hotel_id: _hotelId, smtp_password_encrypted: password, ...visible } = settings;
    return {
      check_in_time: hotel.check_in_time,
      check_out_time: hotel.check_out_time,
      ...visible,
      smtp_password_set: password !== null,
      updated_at: settingsVersion(hotel, settings),
    };
  }

  async function getSettings(hotelId: string) {
    const hotel = await getHotel(hotelId);
    const settings = await settingsRepository.get(db, hotelId);
    if (!settings) throw new NotFoundError(notFound);
    return present(hotel, settings);
  }

  return {
    getHotel,

    /** A hotel by id, within the caller's transaction when given one. */
    find: (hotelId: string, conn: DbOrTrx = db) => hotelsRepository.findById(conn, hotelId),

    /** A hotel and a nightly stay's span in it (a booking being written needs both), in one query. */
    findWithNightlySpan: (hotelId: string, nights: { checkIn: string; checkOut: string }, conn: DbOrTrx = db) =>
      hotelsRepository.findWithNightlySpan(conn, hotelId, nights.checkIn, nights.checkOut),

    settingsOf: (hotelId: string, conn: DbOrTrx = db) => settingsRepository.get(conn, hotelId),

    /**
     * A new hotel under the first free slug made from its name (`-2`, `-3`... when taken). A slug taken by a
     * concurrent registration surfaces as the unique violation `hotels_slug_unique`: the caller retries.
     */
    async create(trx: Knex.Transaction, fields: Pick<Hotel, 'name' | 'address' | 'phone'>): Promise<Hotel> {
      const base = slugify(fields.name);
      const slug = firstFreeSlug(base, await hotelsRepository.slugsLike(trx, base));
      return hotelsRepository.insert(trx, { ...fields, slug });
    },

    async updateHotel(hotelId: string, changes: HotelChanges, expected?: ExpectedVersion) {
      return db.transaction(async (trx) => {
        const current = await hotelsRepository.lock(trx, hotelId);
        if (!current) throw new NotFoundError(notFound);
        assertVersion(expected, current.updated_at!);
        return (await hotelsRepository.update(trx, hotelId, changes))!;
      });
    },

    /**
     * The hotel a route's `:slug` names, as every hotel request resolves it. A slug never changes and hotels are not
     * deleted, so a hotel found once is remembered (a slug nobody has yet is looked up again next time).
     */
    async findBySlug(slug: string): Promise<HotelRef | undefined> {
      const known = hotelsBySlug.get(slug);
      if (known) return known;
      const hotel = await hotelsRepository.findBySlug(db, slug);
      if (!hotel) return undefined;
      if (hotelsBySlug.size >= MAX_REMEMBERED_SLUGS) hotelsBySlug.delete(hotelsBySlug.keys().next().value!);
      const ref = { id: hotel.id, slug: hotel.slug };
      hotelsBySlug.set(slug, ref);
      return ref;
    },

    getSettings,

    async updateSettings(hotelId: string, changes: SettingsChanges, expected?: ExpectedVersion) {
      const { check_in_time, check_out_time, smtp_password, ...settings } = changes;
      // The relay is an address this service will connect to: never one inside its own networks (400, nothing
      // saved). A name that does not resolve yet is accepted here; the sender must check again before connecting.
      if (settings.smtp_host) {
        await assertPublicDestination(settings.smtp_host, {
          allowPrivate: config.allowPrivateOutbound,
          allowUnresolved: true,
        });
      }
      await db.transaction(async (trx) => {
        const hotel = await hotelsRepository.lock(trx, hotelId);
        if (!hotel) throw new NotFoundError(notFound);
        const current = (await settingsRepository.get(trx, hotelId, { forUpdate: true }))!;
        assertVersion(expected, settingsVersion(hotel, current));
        if (REQUISITE_FIELDS.some((field) => field in settings)) assertRequisites({ ...current, ...settings });
        if (check_in_time || check_out_time) {
          await hotelsRepository.update(trx, hotelId, { check_in_time, check_out_time });
        }
        const passwordChange =
          smtp_password === undefined
            ? {}
            : {
                smtp_password_encrypted:
                  smtp_password === null ? null : encryptSecret(smtp_password, config.encryption),
              };
        if (Object.keys(settings).length > 0 || smtp_password !== undefined) {
          await settingsRepository.update(trx, hotelId, { ...settings, ...passwordChange });
        }
      });
      return getSettings(hotelId);
    },
  };
}

export type HotelsService = ReturnType<typeof createHotelsService>;
