import type { DbOrTrx } from '../../platform/db/knex';
import { createFollowers } from '../../platform/followers';
import type { BookingPayment } from '../payments';
import type { Booking, BookingCharge } from './bookings.types';

/** Money a stay's records just took in, told in their transaction: a charge line, a payment, a payment taken back. */
export type LedgerEntry =
  | { kind: 'charge'; booking: Booking; charge: BookingCharge }
  | { kind: 'payment'; booking: Booking; payment: BookingPayment }
  | { kind: 'payment_removed'; booking: Booking; payment: BookingPayment; removedBy: string };

/** Another module keeping books of the stay (the folios): it writes its own rows for each entry, in that transaction. */
export type LedgerFollower = (trx: DbOrTrx, entry: LedgerEntry) => Promise<void>;

export const createLedgerFollowers = () => createFollowers<[DbOrTrx, LedgerEntry]>();

export type LedgerFollowers = ReturnType<typeof createLedgerFollowers>;
