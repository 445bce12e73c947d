import type { TierBasis } from './loyalty.rules';

export interface LoyaltySettingsRow {
  hotel_id: string;
  enabled: boolean;
  tier_basis: TierBasis;
  /** Money one point is worth when redeemed, e.g. "1.00". */
  point_value: string;
  /** Months an earned point lives; null: points never expire. */
  expiry_months: number | null;
  updated_at: Date;
}

export interface TierRow {
  id: string;
  hotel_id: string;
  name: string;
  /** Nights or money (by the programme's basis) in the qualifying window from which the tier applies. */
  threshold: string;
  /** Points per 100 of a stay's cost. */
  earn_rate: string;
}

export type TierInput = Pick<TierRow, 'name' | 'threshold' | 'earn_rate'>;

export interface LoyaltySettingsChanges {
  enabled?: boolean;
  tier_basis?: TierBasis;
  point_value?: string;
  expiry_months?: number | null;
  tiers?: TierInput[];
}

export type EntryReason = 'stay' | 'redemption' | 'expiry' | 'adjustment';

export interface EntryRow {
  id: string;
  hotel_id: string;
  guest_id: string;
  points: number;
  reason: EntryReason;
  booking_id: string | null;
  expired_entry_id: string | null;
  reversed_entry_id: string | null;
  /** For a negative `redemption`: the money it took off the bill (what its reversal puts back). */
  amount: string | null;
  note: string | null;
  tier: string | null;
  stay_nights: number | null;
  stay_spend: string | null;
  expires_at: Date | null;
  created_by: string | null;
  created_at: Date;
}

export type NewEntry = Pick<EntryRow, 'hotel_id' | 'guest_id' | 'points' | 'reason'> &
  Partial<
    Pick<
      EntryRow,
      | 'booking_id'
      | 'expired_entry_id'
      | 'reversed_entry_id'
      | 'amount'
      | 'note'
      | 'tier'
      | 'stay_nights'
      | 'stay_spend'
      | 'expires_at'
    >
  > & { created_by?: string | null };
