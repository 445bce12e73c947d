/**
 * Loyalty accrual, for the booking workflow: once a stay is checked out its guest earns points. Ids go in, a word
 * comes out. The loyalty module implements it; the workflow and the module import this file.
 */
export interface LoyaltyActivities {
  /**
   * Credits the points of a checked-out stay to its primary guest, at most once per stay whatever the retries (a
   * unique ledger row per stay). `no_programme`: the hotel runs none; `not_eligible`: no guest profile, not checked
   * out, or nothing to earn; `already_accrued`: an earlier attempt did it.
   */
  accrueStayPoints(
    hotelId: string,
    bookingId: string,
  ): Promise<'accrued' | 'already_accrued' | 'no_programme' | 'not_eligible'>;
}
