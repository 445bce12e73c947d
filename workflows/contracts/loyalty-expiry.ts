/** The points-expiry job's contract (schedule `loyalty-expiry`, daily); the loyalty module implements it. */

export interface LoyaltyExpiryReport {
  /** Guests whose expired points this pass settled. */
  guests: number;
  /** Guests were left for another pass. */
  more: boolean;
}

export interface LoyaltyExpiryActivities {
  /** Idempotent: each earned row is closed by at most one expiry row, however often the job runs or retries. */
  expireLoyaltyPoints(): Promise<LoyaltyExpiryReport>;
}
