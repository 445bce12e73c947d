export const CONNECTION_TYPES = ['direct', 'agent'] as const;
export type ConnectionType = (typeof CONNECTION_TYPES)[number];

/** The languages the TV system's screens are expected to have (ISO 639-1). */
export const TV_LANGUAGES = [
  'ru',
  'en',
  'de',
  'fr',
  'es',
  'it',
  'zh',
  'ja',
  'ko',
  'ar',
  'tr',
  'kk',
  'uz',
  'hy',
  'az',
  'be',
  'uk',
] as const;

export const PUSH_EVENTS = ['check_in', 'check_out', 'test_check_in'] as const;
export type PushEvent = (typeof PUSH_EVENTS)[number];
export type PushStatus = 'ok' | 'error' | 'skipped';

/** Room ids (ours) to room numbers (the TV system's). */
export type RoomNumberMap = Record<string, string>;

export interface TvSettingsRow {
  hotel_id: string;
  enabled: boolean;
  connection_type: ConnectionType;
  agent_workstation_id: string | null;
  server_url: string | null;
  default_language: string;
  netup_room_number: RoomNumberMap;
  tl_token_hash: string | null;
  tl_token_hint: string | null;
  tl_token_kind: TokenKind | null;
  tl_token_created_at: Date | null;
  updated_at: Date;
}

/** `issued`: made by the service, looked up alone. `vendor`: the TV vendor's own, kept keyed by the hotel. */
export type TokenKind = 'issued' | 'vendor';

/** As answered: the token never, only whether one is set, its kind and its last characters. */
export type TvSettings = Omit<TvSettingsRow, 'tl_token_hash'> & { tl_token_set: boolean };

export interface TvSettingsInput {
  enabled?: boolean;
  connection_type?: ConnectionType;
  agent_workstation_id?: string | null;
  server_url?: string | null;
  default_language?: string;
  netup_room_number?: RoomNumberMap;
  tl_token?: string | null;
}

export interface PushLogEntry {
  id: string;
  hotel_id: string;
  booking_id: string | null;
  event: PushEvent;
  status: PushStatus;
  detail: string;
  attempt: number;
  via: ConnectionType | null;
  http_status: number | null;
  created_at: Date;
}

export type NewPushLogEntry = Omit<PushLogEntry, 'id' | 'created_at'>;

/** A stay in house as the TV system reads it. */
export interface TvReservation {
  room: string;
  guest_name: string;
  language: string;
  arrival: string;
  departure: string;
}

export interface PollLogEntry {
  at: string;
  method: string;
  address: string;
  status: number;
  reservations: number;
}
