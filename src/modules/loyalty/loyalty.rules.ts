export const TIER_BASES = ['nights', 'spend'] as const;
export type TierBasis = (typeof TIER_BASES)[number];

export const MAX_TIERS = 10;
/** Stays checked out within this many days count toward a guest's tier. */
export const QUALIFYING_DAYS = 365;

/** Points a stay earns: `rate` points per 100 of its cost (in cents), rounded down to whole points. */
export function pointsFor(costCents: bigint, rate: string): number {
  if (costCents <= 0n) return 0;
  const rateHundredths = BigInt(Math.round(Number(rate) * 100));
  return Number((costCents * rateHundredths) / 1_000_000n);
}

/** The tier with the highest threshold the qualifying amount reaches (tiers always include one at 0). */
export function tierFor<T extends { threshold: string }>(tiers: readonly T[], qualifying: number): T | undefined {
  return [...tiers]
    .sort((a, b) => Number(b.threshold) - Number(a.threshold))
    .find((tier) => Number(tier.threshold) <= qualifying);
}

/** The tier after the guest's one, if any: what they are working toward. */
export function nextTier<T extends { threshold: string }>(tiers: readonly T[], qualifying: number): T | undefined {
  return [...tiers]
    .sort((a, b) => Number(a.threshold) - Number(b.threshold))
    .find((tier) => Number(tier.threshold) > qualifying);
}

/** Nights of a nightly stay by its calendar dates; an hourly stay has none. */
export function nightsOf(stay: { check_in: string | null; check_out: string | null }): number {
  if (!stay.check_in || !stay.check_out) return 0;
  return Math.max(0, Math.round((Date.parse(stay.check_out) - Date.parse(stay.check_in)) / 86_400_000));
}

/**
 * When points earned at `at` expire: that many calendar months later, on the month's last day when it is shorter
 * (31 January + 1 month is 28 or 29 February); null when the programme lets them live forever.
 */
export function expiryOf(at: Date, months: number | null): Date | null {
  if (months === null) return null;
  const expires = new Date(at);
  expires.setUTCDate(1);
  expires.setUTCMonth(expires.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(expires.getUTCFullYear(), expires.getUTCMonth() + 1, 0)).getUTCDate();
  expires.setUTCDate(Math.min(at.getUTCDate(), lastDay));
  return expires;
}

/** A ledger row that added points: what FIFO spends from. */
export interface EarnedRow {
  id: string;
  points: number;
  expires_at: Date | null;
  created_at: Date;
}

/**
 * FIFO: whatever left the balance (redemptions, debits, expiries: `spent` points in all) used the earned rows in the
 * order they expire, soonest first. Answers what remains of each earned row, in that order.
 */
export function remainingOf(earned: readonly EarnedRow[], spent: number): { row: EarnedRow; remaining: number }[] {
  let left = spent;
  return [...earned].sort(byExpiry).map((row) => {
    const used = Math.min(row.points, left);
    left -= used;
    return { row, remaining: row.points - used };
  });
}

function byExpiry(a: EarnedRow, b: EarnedRow): number {
  const never = Number.POSITIVE_INFINITY;
  return (
    (a.expires_at?.getTime() ?? never) - (b.expires_at?.getTime() ?? never) ||
    a.created_at.getTime() - b.created_at.getTime() ||
    a.id.localeCompare(b.id)
  );
}
