import { russianDate } from '../../platform/dates';
import type { DbOrTrx } from '../../platform/db/knex';
import { createFollowers } from '../../platform/followers';
import { rentalObjectsRepository } from './rentals.repository';
import type { RentalBooking } from './rentals.types';

/**
 * What a rental booking comes to on the room booking it is charged to (`booking_id`), told to the module keeping the
 * stays' books (the folios) in the transaction that wrote it: the stay (null: none, or cancelled) and the amount now
 * ('0.00' once cancelled or no longer charged to a room).
 */
export interface RentalCharge {
  hotelId: string;
  rentalBookingId: string;
  bookingId: string | null;
  amount: string;
  description: string;
  by: string | null;
}

export type RentalChargeFollower = (trx: DbOrTrx, charge: RentalCharge) => Promise<void>;

const dateTime = (instant: Date, timeZone: string) =>
  new Intl.DateTimeFormat('ru-RU', { timeZone, dateStyle: 'short', timeStyle: 'short' }).format(instant);

export function createRentalChargeFollowers() {
  const followers = createFollowers<Parameters<RentalChargeFollower>>();
  return {
    add: followers.add,

    /** Tells the followers what the rental booking comes to now (after its insert or update, row still locked). */
    async told(trx: DbOrTrx, rental: RentalBooking, timeZone: string, by: string | null): Promise<void> {
      if (!followers.any) return;
      const object = await rentalObjectsRepository.find(trx, rental.hotel_id, rental.rental_object_id);
      const when =
        rental.kind === 'daily'
          ? `${russianDate(rental.date_from!)}–${russianDate(rental.date_to!)}`
          : `${dateTime(rental.start_at, timeZone)}–${dateTime(rental.end_at, timeZone).split(' ').pop()}`;
      const charged = rental.status === 'confirmed' && rental.booking_id !== null;
      const charge: RentalCharge = {
        hotelId: rental.hotel_id,
        rentalBookingId: rental.id,
        bookingId: charged ? rental.booking_id : null,
        amount: charged ? rental.price : '0.00',
        description: `Аренда: ${object?.name ?? ''} ${when}`.replace(/\s+/g, ' ').trim(),
        by,
      };
      await followers.tell(trx, charge);
    },
  };
}

export type RentalChargeFollowers = ReturnType<typeof createRentalChargeFollowers>;
