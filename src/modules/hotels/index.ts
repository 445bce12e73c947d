export type { HotelsService } from './hotels.service';
export type { Hotel } from './hotels.model';
export type { GuestLanguage, HotelSettingsRow } from './hotels.settings';
export {
  isValidInn,
  missingRequisites,
  REQUISITE_FIELDS,
  REQUISITE_NAMES,
  type HotelRequisites,
} from './hotels.requisites';
