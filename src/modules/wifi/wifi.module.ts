import { defineModule } from '../../platform/modules';
import { wifiRoutes } from './wifi.routes';
import { createWifiService, type WifiDependencies } from './wifi.service';
import { overwritten } from '../../platform/personal-data';

/** Guests' Wi-Fi: the captive-portal controller asks whether a guest in a room may get online. */
export const wifiModule = defineModule({
  name: 'wifi',
  uses: ['hotels'],
  personalData: [overwritten('wifi_sessions', 'wifi_sessions', 'booking', null)],
  create: ({ db, config }, deps: WifiDependencies) => createWifiService(db, config, deps),
  routes: (wifi) => wifiRoutes(wifi),
  onHotelCreated: (wifi, trx, hotelId) => wifi.settings.onHotelCreated(trx, hotelId),
});
