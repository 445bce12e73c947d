import { settingsTable } from '../../platform/db/settings-table';
import type { HotelRequisites } from './hotels.requisites';

export const ROOM_ASSIGNMENT_STRATEGIES = ['spread', 'together', 'sequential', 'manual'] as const;
/** The languages the hotel can write to its guests in. */
export const GUEST_LANGUAGES = ['ru', 'en'] as const;

export type GuestLanguage = (typeof GUEST_LANGUAGES)[number];

export interface HotelSettingsRow extends HotelRequisites {
  hotel_id: string;
  early_checkin_enabled: boolean;
  late_checkout_enabled: boolean;
  no_show_auto_cancel: boolean;
  no_show_hours: number;
  auto_checkout: boolean;
  auto_checkout_hours: number;
  room_assignment_strategy: (typeof ROOM_ASSIGNMENT_STRATEGIES)[number];
  smtp_host: string | null;
  smtp_port: number | null;
  smtp_secure: boolean;
  smtp_user: string | null;
  smtp_password_encrypted: string | null;
  smtp_from: string | null;
  guest_language: GuestLanguage;
  updated_at: Date;
}

export type HotelSettingsChanges = Partial<Omit<HotelSettingsRow, 'hotel_id' | 'updated_at'>>;

export const settingsRepository = settingsTable<HotelSettingsRow>('hotel_settings');
