export type { HotelsService } from './hotels.service';
export type { Hotel } from './hotels.model';
export type { HotelSettingsRow } from './hotels.settings';
