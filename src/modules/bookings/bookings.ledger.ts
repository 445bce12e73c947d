import type { DbOrTrx } from '../../platform/db/knex';
import type { BookingPayment } from '../payments';
import type { Booking, BookingCharge } from './bookings.types';

/** Money a stay's records just took in, told in their transaction: a charge line, a payment, a payment taken back. */
export type LedgerEntry =
  | { kind: 'charge'; booking: Booking; charge: BookingCharge }
  | { kind: 'payment'; booking: Booking; payment: BookingPayment }
  | { kind: 'payment_removed'; booking: Booking; payment: BookingPayment };

/** Another module keeping books of the stay (the folios): it writes its own rows for each entry, in that transaction. */
export type LedgerFollower = (trx: DbOrTrx, entry: LedgerEntry) => Promise<void>;

export function createLedgerFollowers() {
  const followers: LedgerFollower[] = [];
  return {
    /** Called by the module that follows, when it is built (after bookings, whose service it uses). */
    add(follower: LedgerFollower): void {
      followers.push(follower);
    },
    async told(trx: DbOrTrx, entry: LedgerEntry): Promise<void> {
      for (const follower of followers) await follower(trx, entry);
    },
  };
}

export type LedgerFollowers = ReturnType<typeof createLedgerFollowers>;
