export const REVIEW_STATUSES = ['pending', 'published', 'hidden'] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];

/** What a guest rates besides the stay as a whole, each 1 to 5 and each optional. */
export const REVIEW_ASPECTS = ['cleanliness', 'staff', 'comfort', 'value'] as const;
export type ReviewAspect = (typeof REVIEW_ASPECTS)[number];

export interface ReviewSettingsRow {
  hotel_id: string;
  invitations_enabled: boolean;
  invitation_delay_hours: number;
  auto_publish: boolean;
  updated_at: Date;
}

export type ReviewSettingsChanges = Partial<
  Pick<ReviewSettingsRow, 'invitations_enabled' | 'invitation_delay_hours' | 'auto_publish'>
>;

export interface InvitationRow {
  id: string;
  hotel_id: string;
  booking_id: string;
  token_sha256: string;
  email: string;
  guest_first_name: string;
  stay_from: string;
  stay_to: string;
  claimed_at: Date;
  sent_at: Date | null;
  expires_at: Date;
  used_at: Date | null;
}

export type NewInvitation = Pick<
  InvitationRow,
  'hotel_id' | 'booking_id' | 'token_sha256' | 'email' | 'guest_first_name' | 'stay_from' | 'stay_to' | 'expires_at'
>;

export type Ratings = { overall: number } & Partial<Record<ReviewAspect, number | null>>;

/** What the guest sends from the review page. */
export type ReviewInput = Ratings & { comment?: string };

export interface ReviewRow {
  id: string;
  hotel_id: string;
  booking_id: string;
  invitation_id: string;
  overall: number;
  cleanliness: number | null;
  staff: number | null;
  comfort: number | null;
  value: number | null;
  comment: string;
  guest_first_name: string;
  stay_from: string;
  stay_to: string;
  status: ReviewStatus;
  reply: string | null;
  replied_at: Date | null;
  replied_by: string | null;
  published_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface ReviewFilter {
  status?: ReviewStatus;
  min_rating?: number;
  max_rating?: number;
  has_reply?: boolean;
  /** Days of the hotel's calendar on which the reviews came in. */
  from?: string;
  to?: string;
}

export interface SummaryQuery {
  from: string;
  to: string;
}

export type Averages = Record<'overall' | ReviewAspect, number | null>;

export interface OptOutRow {
  id: string;
  hotel_id: string;
  email: string;
  source: 'guest' | 'staff';
  created_by: string | null;
  created_at: Date;
}
