import type { Knex } from 'knex';
import type { Db } from '../../platform/db/knex';
import { BusinessRuleError, NotFoundError } from '../../platform/errors';
import type { ExpectedVersion } from '../../platform/http/concurrency';
import type { BookingsService } from '../bookings';
import type { GuestsService } from '../guests';
import { formatMoney, parseMoney } from '../pricing';
import { loyaltyMessages } from './loyalty.messages';
import { entriesRepository, settingsRepository, tiersRepository } from './loyalty.repository';
import { expiryOf, MAX_TIERS, nextTier, nightsOf, pointsFor, QUALIFYING_DAYS, tierFor } from './loyalty.rules';
import type { LoyaltySettingsChanges, LoyaltySettingsRow, TierInput, TierRow } from './loyalty.types';

export interface LoyaltyDependencies {
  bookings: Pick<BookingsService, 'get' | 'charges'>;
  guests: Pick<GuestsService, 'find'>;
}

export type AccrualResult = 'accrued' | 'already_accrued' | 'no_programme' | 'not_eligible';

const refused = (message: string, code: string) => new BusinessRuleError(message, [message], code);

function checkTiers(basis: LoyaltySettingsRow['tier_basis'], tiers: readonly TierInput[]): void {
  const thresholds = tiers.map((tier) => Number(tier.threshold));
  if (tiers.length > MAX_TIERS) throw refused(loyaltyMessages.tiersTooMany(MAX_TIERS), 'loyalty_tiers_invalid');
  if (thresholds.filter((threshold) => threshold === 0).length !== 1)
    throw refused(loyaltyMessages.tierAtZero, 'loyalty_tiers_invalid');
  if (new Set(thresholds).size !== thresholds.length)
    throw refused(loyaltyMessages.tiersUnique, 'loyalty_tiers_invalid');
  if (basis === 'nights' && thresholds.some((threshold) => !Number.isInteger(threshold)))
    throw refused(loyaltyMessages.nightsWhole, 'loyalty_tiers_invalid');
}

const qualifyingSince = (now: Date) => new Date(now.getTime() - QUALIFYING_DAYS * 86_400_000);

export function createLoyaltyService(db: Db, deps: LoyaltyDependencies) {
  async function programme(conn: Db | Knex.Transaction, hotelId: string) {
    const [settings, tiers] = await Promise.all([
      settingsRepository.get(conn, hotelId),
      tiersRepository.list(conn, hotelId),
    ]);
    return { ...settings, tiers };
  }

  /** The guest's tier and what it is computed from: their credited stays in the qualifying window. */
  async function standing(
    conn: Db | Knex.Transaction,
    settings: LoyaltySettingsRow,
    tiers: TierRow[],
    guestId: string,
    now: Date,
  ) {
    const { nights, spend } = await entriesRepository.qualifying(
      conn,
      settings.hotel_id,
      guestId,
      qualifyingSince(now),
    );
    const qualifying = settings.tier_basis === 'nights' ? nights : Number(spend);
    return { nights, spend, qualifying, tier: tierFor(tiers, qualifying), next: nextTier(tiers, qualifying) };
  }

  return {
    settings: {
      get: (hotelId: string) => programme(db, hotelId),

      /** The programme's fields and, when given, its whole tiers list; the bounds hold for the result. */
      update: (hotelId: string, { tiers, ...changes }: LoyaltySettingsChanges, expected?: ExpectedVersion) =>
        db.transaction(async (trx) => {
          await settingsRepository.update(trx, hotelId, changes, expected);
          const settings = await settingsRepository.get(trx, hotelId);
          checkTiers(settings.tier_basis, tiers ?? (await tiersRepository.list(trx, hotelId)));
          if (tiers) await tiersRepository.replace(trx, hotelId, tiers);
          return programme(trx, hotelId);
        }),

      onHotelCreated: async (trx: Knex.Transaction, hotelId: string) => {
        await settingsRepository.insertDefaults(trx, hotelId);
        await tiersRepository.replace(trx, hotelId, [{ name: 'Базовый', threshold: '0', earn_rate: '5' }]);
      },
    },

    /**
     * Credits a checked-out stay to its primary guest at the tier their earlier stays reached, once per stay: the
     * ledger's unique stay row makes a retry, a second check-out path or a repeat by staff write nothing.
     */
    async accrueStayPoints(hotelId: string, bookingId: string, now = new Date()): Promise<AccrualResult> {
      const { enabled, ...settings } = await settingsRepository.get(db, hotelId);
      if (!enabled) return 'no_programme';
      if (await entriesRepository.stayOf(db, hotelId, bookingId)) return 'already_accrued';
      const booking = await deps.bookings.get(hotelId, bookingId).catch((error: unknown) => {
        if (error instanceof NotFoundError) return undefined;
        throw error;
      });
      const primary = booking?.guests.find((guest) => guest.is_primary);
      if (!booking || booking.status !== 'checked_out' || !primary) return 'not_eligible';
      const cost = parseMoney(booking.price) + parseMoney(booking.charges_amount);
      const nights = nightsOf(booking);
      if (cost <= 0n && nights === 0) return 'not_eligible';
      const tiers = await tiersRepository.list(db, hotelId);
      const { tier } = await standing(db, { enabled, ...settings }, tiers, primary.guest_id, now);
      const written = await entriesRepository.insertStay(db, {
        hotel_id: hotelId,
        guest_id: primary.guest_id,
        points: tier ? pointsFor(cost, tier.earn_rate) : 0,
        reason: 'stay',
        booking_id: bookingId,
        tier: tier?.name ?? null,
        stay_nights: nights,
        stay_spend: formatMoney(cost < 0n ? 0n : cost),
        expires_at: expiryOf(now, settings.expiry_months),
      });
      return written ? 'accrued' : 'already_accrued';
    },
  };
}

export type LoyaltyService = ReturnType<typeof createLoyaltyService>;
