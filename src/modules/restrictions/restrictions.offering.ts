import { addDays } from '../../platform/dates';
import { brokenBy } from './restrictions.rules';
import type { BrokenRestriction, RestrictedStay, RestrictionNight } from './restrictions.types';

/** Alternatives are the same stay shifted by at most this many days either way. */
export const MAX_SHIFT_DAYS = 3;

/** The nights of a stay as an answer names them. */
export interface StayDates {
  check_in: string;
  check_out: string;
}

/** The stay shifted by `days` (negative: earlier), the same length. */
export const shifted = <T extends StayDates>(stay: T, days: number): T => ({
  ...stay,
  check_in: addDays(stay.check_in, days),
  check_out: addDays(stay.check_out, days),
});

/** The shifts tried for alternatives, closest first; on a tie the earlier stay first: -1, +1, -2, +2, -3, +3. */
export const SHIFTS = Array.from({ length: MAX_SHIFT_DAYS }, (_, i) => [-(i + 1), i + 1]).flat();

/** The nights whose restrictions an offering reads: the stay widened to cover each of its shifts, one range. */
export const withShifts = (stay: RestrictedStay): RestrictedStay => ({
  ...stay,
  check_in: shifted(stay, -MAX_SHIFT_DAYS).check_in,
  check_out: shifted(stay, MAX_SHIFT_DAYS).check_out,
});

/** What an answer offering a stay says about it: sellable or not, why, and the nearest sellable shifts. */
export interface StayVerdict {
  sellable: boolean;
  restrictions: BrokenRestriction[];
  alternatives: StayDates[];
}

/**
 * Answers about stays from the restrictions read once for them and their shifts (`rows`, the hotel's `today`).
 * `free` says whether rooms can hold a stay (always true where the caller cannot see rooms); a stay is sellable when
 * it breaks nothing and rooms can hold it, and only a stay that is not sellable gets alternatives (never in the past).
 */
export function offeringFrom(rows: RestrictionNight[], today: string) {
  const sellable = (stay: RestrictedStay, free: (stay: StayDates) => boolean) =>
    stay.check_in >= today && brokenBy(stay, rows, today).length === 0 && free(stay);
  return {
    today,
    verdict(stay: RestrictedStay, free: (stay: StayDates) => boolean = () => true): StayVerdict {
      const restrictions = brokenBy(stay, rows, today);
      if (restrictions.length === 0 && free(stay)) return { sellable: true, restrictions, alternatives: [] };
      const alternatives = SHIFTS.map((days) => shifted(stay, days))
        .filter((shift) => sellable(shift, free))
        .map(({ check_in, check_out }) => ({ check_in, check_out }));
      return { sellable: false, restrictions, alternatives };
    },
  };
}

export type Offering = ReturnType<typeof offeringFrom>;
