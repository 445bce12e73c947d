/** The personal-data retention sweep's contract (schedule `retention-sweep`, daily); the retention module implements it. */

export interface RetentionSweepInput {
  /** The moment the sweep judges expiry at (ISO 8601); its start's, when a schedule starts it without one. */
  now?: string;
}

/** Where a pass of the sweep ended: the next pass starts after this guest. */
export interface SweepCursor {
  hotel_id: string;
  id: string;
}

export interface RetentionSweepReport {
  /** Guests erased by this pass. */
  erased: number;
  /** Guests whose erasure failed (ids only): left for the next day's run, the others erased all the same. */
  failed: string[];
  /** The last guest this pass looked at. */
  after: SweepCursor | null;
  /** Guests were left for another pass. */
  more: boolean;
}

export interface RetentionActivities {
  /**
   * Erases up to one batch of guests (after `after`) whose data expired at `now` (across hotels, each hotel by its own setting).
   * Idempotent: an erased guest is never chosen again, so a retry or a restart erases only what is left.
   */
  eraseExpiredGuests(now: string, after?: SweepCursor | null): Promise<RetentionSweepReport>;
}
