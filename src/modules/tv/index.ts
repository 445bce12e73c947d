export type { TvService } from './tv.service';
export type { TvSettings, PushLogEntry, TvReservation } from './tv.types';
