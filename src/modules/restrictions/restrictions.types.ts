/** Restrictions counted in nights of the stay (on its arrival night, or on every night it holds). */
export const COUNT_FIELDS = ['min_stay_arrival', 'min_stay_through', 'max_stay'] as const;
/** The booking window: days from the hotel's today to the arrival, counted on the arrival night. */
export const ADVANCE_FIELDS = ['min_advance_days', 'max_advance_days'] as const;
/** Restrictions that close a night: to arrivals, to departures (on the departure day), or to every sale. */
export const FLAG_FIELDS = ['closed_to_arrival', 'closed_to_departure', 'stop_sell'] as const;
export const RESTRICTION_FIELDS = [...COUNT_FIELDS, ...FLAG_FIELDS, ...ADVANCE_FIELDS] as const;

export type RestrictionField = (typeof RESTRICTION_FIELDS)[number];
export type RestrictionValues = {
  [F in RestrictionField]: F extends (typeof FLAG_FIELDS)[number] ? boolean : number | null;
};

/** At most this many items in one bulk write, each over at most `MAX_WRITE_NIGHTS` nights. */
export const MAX_WRITE_ITEMS = 100;
export const MAX_WRITE_NIGHTS = 731;
/** At most this many nights in one read; over `MAX_READ_NIGHTS_ALL` nights, of one category only. */
export const MAX_READ_NIGHTS = 366;
export const MAX_READ_NIGHTS_ALL = 31;
/** The calendar restrictions are written in. */
export const FIRST_NIGHT = '2000-01-01';
export const LAST_NIGHT = '2099-12-31';
/** The longest stay a count may name, and the furthest booking window. */
export const MAX_COUNT = 365;
export const MAX_ADVANCE_DAYS = 731;

/** ISO weekdays: 1 Monday .. 7 Sunday. */
export type Weekday = 1 | 2 | 3 | 4 | 5 | 6 | 7;

/** One item of a bulk write: the fields it names are set (a value) or cleared (`null`) on each night it covers. */
export type RestrictionWrite = {
  category_id: string;
  tariff_id?: string | null;
  from: string;
  to: string;
  weekdays?: Weekday[];
} & Partial<{ [F in RestrictionField]: RestrictionValues[F] | null }>;

export interface RestrictionQuery {
  from: string;
  to: string;
  category_id?: string;
  /** A tariff's own nights; `null`: only the category-wide ones. */
  tariff_id?: string | null;
}

/** The restrictions of one night of a category (and tariff, or every tariff when `tariff_id` is null). */
export type RestrictionNight = { category_id: string; tariff_id: string | null; night: string } & RestrictionValues;

/** A stay as restrictions see it: its category, tariff and nights `check_in`..`check_out`. */
export interface RestrictedStay {
  category_id: string;
  tariff_id: string | null;
  check_in: string;
  check_out: string;
}

/** A restriction a stay breaks, and the night it is set on. */
export interface BrokenRestriction {
  restriction: RestrictionField;
  night: string;
  value: number | boolean;
}

/** What a booking records when management sold a stay against its restrictions. */
export interface RestrictionOverride {
  by: string | null;
  at: string;
  restrictions: BrokenRestriction[];
}
