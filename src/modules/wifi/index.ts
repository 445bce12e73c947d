export type { WifiService } from './wifi.service';
export type { WifiAuthorization, WifiSettings } from './wifi.types';
