import type { SharedSettings } from '../../platform/config';
import type { Db } from '../../platform/db/knex';
import { createGuessThrottle, roomGuessKey, type CountedGuess } from '../../platform/http/guess-throttle';
import { createRateLimiter } from '../../platform/http/rate-limit';
import type { HotelsService } from '../hotels';
import { portalUnauthorized, WifiRefusal, wifiMessages, WifiThrottled } from './wifi.messages';
import { sessionsRepository, staysRepository } from './wifi.repository';
import { sessionUntil } from './wifi.rules';
import { createWifiSettings, portalSecretMatches } from './wifi.settings';
import { provenStay, roomKey, type Stay } from './wifi.stays';
import { WIFI_BUDGETS } from './wifi.throttle';
import type { VerifyInput, WifiAuthorization, WifiSettingsRow } from './wifi.types';

export interface WifiDependencies {
  hotels: Pick<HotelsService, 'findBySlug' | 'find'>;
}

/** Who is asking: the `Authorization` header the portal controller sent, and the address it called from. */
export interface PortalCaller {
  authorization?: string;
  address: string;
}

/** The hotel's Wi-Fi captive portal: its settings, and whether a guest may get online. */
export function createWifiService(db: Db, config: Pick<SharedSettings, 'rateLimit'>, deps: WifiDependencies) {
  const settings = createWifiSettings(db);
  const throttle = createGuessThrottle(
    createRateLimiter(db, config.rateLimit),
    (retryAfter) => new WifiThrottled(retryAfter),
  );

  /** The hotel the body names, if the caller holds its portal secret; 401 (one answer) otherwise. */
  async function portalHotel(slug: string, caller: PortalCaller) {
    const giveBack = await throttle.attempt([[WIFI_BUDGETS.portal, `${slug}:${caller.address}`]]);
    const hotel = await deps.hotels.findBySlug(slug);
    const row = hotel && (await settings.row(hotel.id));
    if (!hotel || !row || !portalSecretMatches(caller.authorization, row)) throw portalUnauthorized();
    await giveBack();
    return { hotel, row };
  }

  /** Lets the device in (a known one again, renewed) unless the stay already has all the devices it may. */
  async function admit(row: WifiSettingsRow, stay: Stay, mac: string | undefined, now: Date) {
    const until = sessionUntil(now, row.session_hours, stay.end_at);
    const answer = (used: number): WifiAuthorization => ({
      authorized: true,
      until,
      devices_allowed: row.devices_per_stay,
      devices_used: used,
    });
    if (!mac) return answer((await sessionsRepository.devices(db, stay.id)).length);
    return db.transaction(async (trx) => {
      await sessionsRepository.lockStay(trx, stay.id);
      const devices = await sessionsRepository.devices(trx, stay.id);
      const known = devices.includes(mac);
      if (!known && devices.length >= row.devices_per_stay)
        throw new WifiRefusal('device_limit', wifiMessages.deviceLimit);
      await sessionsRepository.upsert(trx, { hotelId: row.hotel_id, bookingId: stay.id, clientMac: mac }, now, until);
      return answer(known ? devices.length : devices.length + 1);
    });
  }

  return {
    settings,

    /**
     * Whether a guest may get online: the room's stay checked in now, proven as the hotel's method asks. Every way of
     * not matching is one refusal; wrong guesses are counted per room and per device, right ones are not.
     */
    async verify(input: VerifyInput, caller: PortalCaller): Promise<WifiAuthorization> {
      const { hotel, row } = await portalHotel(input.hotel, caller);
      // A hotel the service has closed offers its guests nothing, as if its Wi-Fi were off.
      if (!row.enabled || !(await deps.hotels.find(hotel.id))?.is_active)
        throw new WifiRefusal('disabled', wifiMessages.disabled);
      // Every refusal takes this one path: one query, both budgets counted, then the one 403.
      const evidence = await staysRepository.evidence(db, hotel.id, roomKey(input.room));
      const counted: CountedGuess[] = [
        [WIFI_BUDGETS.room, roomGuessKey(hotel.id, evidence[0].room_id)],
        [WIFI_BUDGETS.device, `${hotel.id}:${input.client_mac ?? caller.address}`],
      ];
      const giveBack = await throttle.attempt(counted);
      const now = new Date();
      const stay = provenStay(evidence, row.auth_method, input, now);
      if (!stay) throw new WifiRefusal('not_authorized', wifiMessages.notAuthorized);
      await giveBack();
      return admit(row, stay, input.client_mac, now);
    },
  };
}

export type WifiService = ReturnType<typeof createWifiService>;
