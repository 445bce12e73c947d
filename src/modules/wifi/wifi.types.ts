import type { WifiAuthMethod } from './wifi.rules';

export interface WifiSettingsRow {
  hotel_id: string;
  enabled: boolean;
  auth_method: WifiAuthMethod;
  session_hours: number;
  devices_per_stay: number;
  portal_secret_sha256: string | null;
  portal_secret_hint: string | null;
  portal_secret_created_at: Date | null;
  updated_at: Date;
}

/** The settings as staff see them: whether the portal has a secret, never the secret. */
export type WifiSettings = Omit<WifiSettingsRow, 'portal_secret_sha256'> & { portal_secret_set: boolean };

export type WifiSettingsChanges = Partial<
  Pick<WifiSettingsRow, 'enabled' | 'auth_method' | 'session_hours' | 'devices_per_stay'>
>;

/** What the captive-portal controller sends for a guest trying to get online. */
export interface VerifyInput {
  hotel: string;
  room: string;
  last_name?: string;
  birth_date?: string;
  client_mac?: string;
}

export interface WifiAuthorization {
  authorized: true;
  until: Date;
  devices_allowed: number;
  devices_used: number;
}
