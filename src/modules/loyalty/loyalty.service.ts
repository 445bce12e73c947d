import type { Knex } from 'knex';
import { idempotent } from '../../platform/db/idempotency';
import { mapPage, type PageRequest } from '../../platform/db/keyset';
import type { Db } from '../../platform/db/knex';
import { transactionWithRetry } from '../../platform/db/retry';
import { BusinessRuleError, ConflictError, NotFoundError } from '../../platform/errors';
import type { ExpectedVersion } from '../../platform/http/concurrency';
import type { Booking, BookingsService, BookingStatus } from '../bookings';
import type { GuestsService } from '../guests';
import { formatMoney, parseMoney } from '../../platform/money';
import { loyaltyMessages } from './loyalty.messages';
import { entriesRepository, settingsRepository, tiersRepository } from './loyalty.repository';
import {
  expiryOf,
  MAX_TIERS,
  nextTier,
  nightsOf,
  pointsFor,
  QUALIFYING_DAYS,
  remainingOf,
  tierFor,
} from './loyalty.rules';
import type { EntryRow, LoyaltySettingsChanges, LoyaltySettingsRow, TierInput, TierRow } from './loyalty.types';

export interface LoyaltyDependencies {
  bookings: Pick<BookingsService, 'get' | 'getWithin' | 'charges' | 'followStays'>;
  guests: Pick<GuestsService, 'find'>;
}

export interface Adjustment {
  points: number;
  note: string;
}

export interface ExpiryReport {
  guests: number;
  /** Whether guests were left for another pass (one pass settles a bounded number). */
  more: boolean;
}

/** Guests whose expired points one pass settles at most. */
const EXPIRY_GUESTS_PER_PASS = 500;

const OPEN_STATUSES: readonly BookingStatus[] = ['inquiry', 'confirmed', 'checked_in'];

/** What the booking still owes: its price and bill lines less what was paid. */
function owed(booking: Booking): string {
  return formatMoney(parseMoney(booking.price) + parseMoney(booking.charges_amount) - parseMoney(booking.paid_amount));
}

/** A ledger row as staff read it (the bookkeeping columns left out). */
function presentEntry({ hotel_id: _hotel, ...entry }: EntryRow) {
  return entry;
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

  /** What FIFO left of each earned row no expiry row has closed yet, soonest to expire first. */
  async function held(trx: Knex.Transaction, hotelId: string, guestId: string) {
    const closed = await entriesRepository.expiredIds(trx, hotelId, guestId);
    const { earned, spent } = await entriesRepository.earnedAndSpent(trx, hotelId, guestId);
    return remainingOf(earned, spent).filter(({ row }) => !closed.has(row.id));
  }

  /**
   * Writes the expiry rows of the guest's earned rows past their date, each closed once with what FIFO left of it
   * (0 when nothing was). Under the guest's lock, so a redemption never spends points that have just expired.
   */
  async function settleExpiries(trx: Knex.Transaction, hotelId: string, guestId: string, now: Date): Promise<void> {
    for (const { row, remaining } of await held(trx, hotelId, guestId)) {
      if (!row.expires_at || row.expires_at > now) continue;
      await entriesRepository.insert(trx, {
        hotel_id: hotelId,
        guest_id: guestId,
        points: -remaining,
        reason: 'expiry',
        expired_entry_id: row.id,
      });
    }
  }

  /** The guest's points, settled up to now and held still until the transaction ends. */
  async function lockedBalance(trx: Knex.Transaction, hotelId: string, guestId: string, now: Date) {
    await entriesRepository.lockGuest(trx, hotelId, guestId);
    await settleExpiries(trx, hotelId, guestId, now);
    return entriesRepository.balance(trx, hotelId, guestId);
  }

  async function requireGuest(hotelId: string, guestId: string): Promise<void> {
    if (!(await deps.guests.find(hotelId, guestId))) throw new NotFoundError(loyaltyMessages.guestNotFound);
  }

  /** The earliest points still held that expire and how many they are; after `settleExpiries`, a date ahead. */
  async function nextExpiry(trx: Knex.Transaction, hotelId: string, guestId: string) {
    const next = (await held(trx, hotelId, guestId)).find(({ row, remaining }) => remaining > 0 && row.expires_at);
    return next ? { points: next.remaining, expires_at: next.row.expires_at } : null;
  }

  /**
   * Credits a checked-out stay to its primary guest at the tier their earlier stays reached, once per stay: the
   * ledger's unique stay row makes a retry, a second check-out path or a repeat by staff write nothing.
   */
  async function accrueStayPoints(hotelId: string, bookingId: string, now = new Date()): Promise<AccrualResult> {
    const found = await settingsRepository.find(db, hotelId);
    if (!found?.enabled) return 'no_programme';
    const { enabled, ...settings } = found;
    if (await entriesRepository.stayOf(db, hotelId, bookingId)) return 'already_accrued';
    const booking = await deps.bookings.get(hotelId, bookingId).catch((error: unknown) => {
      if (error instanceof NotFoundError) return undefined;
      throw error;
    });
    const primary = booking?.guests.find((guest) => guest.is_primary);
    if (!booking || booking.status !== 'checked_out' || !primary) return 'not_eligible';
    // A stay credited late (by the desk) still must have ended within the qualifying window.
    if (!booking.checked_out_at || booking.checked_out_at < qualifyingSince(now)) return 'not_eligible';
    const cost = parseMoney(booking.price) + parseMoney(booking.charges_amount);
    const nights = nightsOf(booking);
    if (cost <= 0n && nights === 0) return 'not_eligible';
    const tiers = await tiersRepository.list(db, hotelId);
    const { tier } = await standing(db, { enabled, ...settings }, tiers, primary.guest_id, now);
    const points = tier ? pointsFor(cost, tier.earn_rate) : 0;
    const written = await entriesRepository.insertStay(db, {
      hotel_id: hotelId,
      guest_id: primary.guest_id,
      points,
      reason: 'stay',
      booking_id: bookingId,
      tier: tier?.name ?? null,
      stay_nights: nights,
      stay_spend: formatMoney(cost < 0n ? 0n : cost),
      // A stay that earned nothing still counts toward the tier; it has no points to expire.
      expires_at: points > 0 ? expiryOf(now, settings.expiry_months) : null,
    });
    return written ? 'accrued' : 'already_accrued';
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

    accrueStayPoints,
    entriesOfBooking: (hotelId: string, bookingId: string, limit: number) =>
      entriesRepository.ofBooking(db, hotelId, bookingId, limit),

    /**
     * The guest's standing: tier, balance (the sum of the ledger), the next points to expire, the way to the next tier.
     * Points past their date are settled first, as a redemption does: the desk never sees held what it cannot spend.
     */
    async account(hotelId: string, guestId: string, now = new Date()) {
      await requireGuest(hotelId, guestId);
      const ref = (found: TierRow | undefined) =>
        found ? { name: found.name, threshold: found.threshold, earn_rate: found.earn_rate } : null;
      return transactionWithRetry(db, async (trx) => {
        const balance = await lockedBalance(trx, hotelId, guestId, now);
        const { tiers, ...settings } = await programme(trx, hotelId);
        const { nights, spend, qualifying, tier, next } = await standing(trx, settings, tiers, guestId, now);
        return {
          guest_id: guestId,
          enabled: settings.enabled,
          balance,
          balance_value: formatMoney(BigInt(balance) * parseMoney(settings.point_value)),
          tier: ref(tier),
          next_tier: ref(next),
          qualifying: {
            basis: settings.tier_basis,
            nights,
            spend: formatMoney(parseMoney(spend)),
            since: qualifyingSince(now),
            to_next_tier: next ? Math.round((Number(next.threshold) - qualifying) * 100) / 100 : null,
          },
          next_expiry: await nextExpiry(trx, hotelId, guestId),
        };
      });
    },

    /** The guest's ledger, newest first. */
    async entries(hotelId: string, guestId: string, page: PageRequest) {
      await requireGuest(hotelId, guestId);
      return mapPage(await entriesRepository.page(db, hotelId, guestId, page), presentEntry);
    },

    /** A manager's correction with its reason; a debit never takes the balance below zero. */
    async adjust(hotelId: string, guestId: string, adjustment: Adjustment, actorId: string, idempotencyKey?: string) {
      await requireGuest(hotelId, guestId);
      const scope = { hotelId, scope: 'loyalty.adjust', key: idempotencyKey, body: { guestId, ...adjustment } };
      return transactionWithRetry(db, (trx) =>
        idempotent(trx, scope, async () => {
          const now = new Date();
          const balance = await lockedBalance(trx, hotelId, guestId, now);
          if (balance + adjustment.points < 0)
            throw refused(loyaltyMessages.notEnoughPoints(balance), 'loyalty_insufficient_points');
          const { expiry_months: months } = await settingsRepository.get(trx, hotelId);
          const entry = await entriesRepository.insert(trx, {
            hotel_id: hotelId,
            guest_id: guestId,
            points: adjustment.points,
            reason: 'adjustment',
            note: adjustment.note,
            created_by: actorId,
            expires_at: adjustment.points > 0 ? expiryOf(now, months) : null,
          });
          return { status: 201, body: presentEntry(entry) };
        }),
      );
    },

    /**
     * Points of the booking's primary guest taken off its bill: the ledger row and the bill's discount line commit
     * together, under the guest's lock (concurrent redemptions see each other's rows) and the booking's.
     */
    async redeem(hotelId: string, bookingId: string, points: number, actorId: string, idempotencyKey?: string) {
      const scope = { hotelId, scope: 'loyalty.redeem', key: idempotencyKey, body: { bookingId, points } };
      return transactionWithRetry(db, (trx) =>
        idempotent(trx, scope, async () => {
          const settings = await settingsRepository.get(trx, hotelId);
          if (!settings.enabled) throw refused(loyaltyMessages.programmeOff, 'loyalty_programme_off');
          const booking = await deps.bookings.getWithin(trx, hotelId, bookingId);
          const primary = booking.guests.find((guest) => guest.is_primary);
          if (!primary) throw refused(loyaltyMessages.noGuestProfile, 'loyalty_no_guest');
          const balance = await lockedBalance(trx, hotelId, primary.guest_id, new Date());
          if (points > balance) throw refused(loyaltyMessages.notEnoughPoints(balance), 'loyalty_insufficient_points');
          const amount = BigInt(points) * parseMoney(settings.point_value);
          const entry = await entriesRepository.insert(trx, {
            hotel_id: hotelId,
            guest_id: primary.guest_id,
            points: -points,
            reason: 'redemption',
            booking_id: bookingId,
            amount: formatMoney(amount),
            created_by: actorId,
          });
          const added = await deps.bookings.charges.addWithin(trx, hotelId, bookingId, {
            kind: 'loyalty_redemption',
            source_id: entry.id,
            description: loyaltyMessages.redemptionNote(points),
            amount: formatMoney(-amount),
          });
          // Checked under the booking's lock: a stay closed meanwhile takes no discount.
          if (!OPEN_STATUSES.includes(added.booking.status))
            throw refused(loyaltyMessages.bookingClosed, 'booking_closed');
          return {
            status: 201,
            body: {
              entry: presentEntry(entry),
              amount: formatMoney(amount),
              balance: balance - points,
              booking_balance: owed(added.booking),
            },
          };
        }),
      );
    },

    /**
     * Gives back the points of a redemption: a positive `redemption` row naming it (once), and on a booking still open
     * the discount line taken back; a cancelled booking's bill stays as it is, a checked-out stay is settled (422).
     */
    async reverse(hotelId: string, bookingId: string, redemptionId: string, actorId: string) {
      return transactionWithRetry(db, async (trx) => {
        const redemption = await entriesRepository.find(trx, hotelId, redemptionId);
        if (
          !redemption ||
          redemption.reason !== 'redemption' ||
          redemption.points > 0 ||
          redemption.booking_id !== bookingId
        )
          throw new NotFoundError(loyaltyMessages.redemptionNotFound);
        const now = new Date();
        const balance = await lockedBalance(trx, hotelId, redemption.guest_id, now);
        if (await entriesRepository.reversalOf(trx, hotelId, redemption.id))
          throw new ConflictError(loyaltyMessages.alreadyReversed, 'loyalty_already_reversed');
        const booking = await deps.bookings.getWithin(trx, hotelId, bookingId);
        if (booking.status === 'checked_out') throw refused(loyaltyMessages.stayClosed, 'booking_closed');
        const { expiry_months: months } = await settingsRepository.get(trx, hotelId);
        const points = -redemption.points;
        const entry = await entriesRepository.insert(trx, {
          hotel_id: hotelId,
          guest_id: redemption.guest_id,
          points,
          reason: 'redemption',
          booking_id: bookingId,
          reversed_entry_id: redemption.id,
          created_by: actorId,
          expires_at: expiryOf(now, months),
        });
        if (booking.status === 'cancelled')
          return { entry: presentEntry(entry), balance: balance + points, booking_balance: owed(booking) };
        // The discount given then (kept on the redemption's row), whatever a point is worth now.
        const { booking: billed } = await deps.bookings.charges.addWithin(trx, hotelId, bookingId, {
          kind: 'loyalty_redemption',
          source_id: entry.id,
          description: loyaltyMessages.reversalNote(points),
          amount: redemption.amount!,
        });
        // Checked under the booking's lock: a stay checked out meanwhile keeps its bill.
        if (billed.status === 'checked_out') throw refused(loyaltyMessages.stayClosed, 'booking_closed');
        return { entry: presentEntry(entry), balance: balance + points, booking_balance: owed(billed) };
      });
    },

    /** The desk's way to credit a checked-out stay (say, a guest profile linked after check-out): once, like the workflow. */
    async creditStay(hotelId: string, bookingId: string) {
      await deps.bookings.get(hotelId, bookingId);
      const result = await accrueStayPoints(hotelId, bookingId);
      const entry = await entriesRepository.stayOf(db, hotelId, bookingId);
      return { result, entry: entry ? presentEntry(entry) : null };
    },

    /**
     * One pass of the expiry job: closes the earned rows past their date, guest by guest, each in its own
     * transaction; idempotent per earned row (an expiry row names the row it closes).
     */
    async expirePoints(now = new Date()): Promise<ExpiryReport> {
      const due = await entriesRepository.dueGuests(db, now, EXPIRY_GUESTS_PER_PASS);
      for (const { hotel_id: hotelId, guest_id: guestId } of due)
        await transactionWithRetry(db, async (trx) => {
          await entriesRepository.lockGuest(trx, hotelId, guestId);
          await settleExpiries(trx, hotelId, guestId, now);
        });
      return { guests: due.length, more: due.length === EXPIRY_GUESTS_PER_PASS };
    },
  };
}

export type LoyaltyService = ReturnType<typeof createLoyaltyService>;
