/**
 * The review invitation, for the booking workflow: some time after check-out the guest is asked to rate the stay. Ids
 * go in, a duration or a word comes out: the guest's address is read inside the activities, so it never enters a
 * workflow history. The reviews module implements it; the workflow and the module import this file.
 */

/**
 * What became of an invitation. `not_invited`: nothing to send (reviews off, no address, the guest opted out, the
 * stay not checked out). `in_doubt`: an earlier attempt took it on and vanished without saying whether the mail server
 * accepted it; it is not sent again, since a guest must never get it twice.
 */
export type ReviewInvitationOutcome = 'sent' | 'already_sent' | 'not_invited' | 'in_doubt';

export interface ReviewActivities {
  /**
   * How long to wait (ms) before inviting the guest of this checked-out stay: the hotel's delay counted from the
   * check-out (0 when it has passed), or null when no invitation will go (reviews off, no address, opted out).
   */
  reviewInvitationDelay(hotelId: string, bookingId: string): Promise<number | null>;
  /** Sends the invitation unless it was sent (or taken on) before, checking again that it is still wanted. */
  sendReviewInvitation(hotelId: string, bookingId: string): Promise<ReviewInvitationOutcome>;
}
