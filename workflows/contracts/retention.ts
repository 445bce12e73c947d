/** The personal-data retention sweep's contract (schedule `retention-sweep`, daily); the retention module implements it. */

export interface RetentionSweepInput {
  /** The moment the sweep judges expiry at (ISO 8601); its start's, when a schedule starts it without one. */
  now?: string;
}

export interface RetentionSweepReport {
  /** Guests erased by this pass. */
  erased: number;
  /** Guests were left for another pass. */
  more: boolean;
}

export interface RetentionActivities {
  /**
   * Erases up to one batch of guests whose data expired at `now` (across hotels, each hotel by its own setting).
   * Idempotent: an erased guest is never chosen again, so a retry or a restart erases only what is left.
   */
  eraseExpiredGuests(now: string): Promise<RetentionSweepReport>;
}
