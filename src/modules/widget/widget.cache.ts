import { createTtlCache } from '../../platform/ttl-cache';
import type { Hotel } from '../hotels';
import type { WidgetSettings } from './widget.types';

/** Five seconds: a hotel's change reaches its widget that much later on other replicas (at once on this one). */
const PUBLIC_TTL_MS = 5000;
const MAX_HOTELS = 10_000;

export interface PublicHotel {
  hotel: Hotel;
  settings: WidgetSettings;
}

/** The widget's busiest reads, remembered briefly per process: the hotel behind a slug and its config answer. */
export function createPublicCache() {
  const hotels = createTtlCache<string, PublicHotel | undefined>({ ttlMs: PUBLIC_TTL_MS, maxEntries: MAX_HOTELS });
  const configs = createTtlCache<string, unknown>({ ttlMs: PUBLIC_TTL_MS, maxEntries: MAX_HOTELS });
  const hotelIds = new Map<string, string>();
  return {
    async hotel(slug: string, load: () => Promise<PublicHotel | undefined>) {
      const found = await hotels.get(slug, load);
      if (found) hotelIds.set(slug, found.hotel.id);
      return found;
    },
    config: <T>(hotelId: string, load: () => Promise<T>) => configs.get(hotelId, load) as Promise<T>,
    forgetHotel(hotelId: string) {
      configs.forget((key) => key === hotelId);
      hotels.forget((slug) => hotelIds.get(slug) === hotelId);
    },
  };
}
