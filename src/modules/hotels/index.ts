export type { HotelsService } from './hotels.service';
export type { Hotel } from './hotels.model';
export type { GuestLanguage, HotelSettingsRow } from './hotels.settings';
