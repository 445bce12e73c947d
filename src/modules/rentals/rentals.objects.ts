import { refusalsAs } from '../../platform/db/base-model';
import type { PageRequest } from '../../platform/db/keyset';
import type { Db } from '../../platform/db/knex';
import { ConflictError, NotFoundError, ValidationError } from '../../platform/errors';
import { missingOrStale, type ExpectedVersion } from '../../platform/http/concurrency';
import { rentalMessages } from './rentals.messages';
import { rentalObjectsRepository } from './rentals.repository';
import { bodyError } from './rentals.schedule';
import type { RentalObjectInput } from './rentals.types';

/**
 * Rental objects, drafts (`is_active: false`) included. The database holds their bounds: opening before closing is
 * checked there, so a change of one of the two hours is weighed against the other as stored.
 */
export function createRentalObjects(db: Db) {
  const boundsChecked = <T>(write: () => Promise<T>) =>
    refusalsAs(
      {
        check: {
          rental_objects_hours_check: () => bodyError('close_hour', rentalMessages.openBeforeClose),
          rental_objects_values_check: () => new ValidationError(rentalMessages.outOfBounds),
        },
      },
      write,
    );

  const missingOrStaleObject = (hotelId: string, id: string, expected: ExpectedVersion | undefined) =>
    missingOrStale(
      expected,
      () => rentalObjectsRepository.find(db, hotelId, id),
      new NotFoundError(rentalMessages.objectNotFound),
    );

  return {
    list: (hotelId: string, { limit, cursor, ...filter }: { is_active?: boolean } & PageRequest) =>
      rentalObjectsRepository.list(db, hotelId, filter, { limit, cursor }),

    async get(hotelId: string, id: string) {
      const object = await rentalObjectsRepository.find(db, hotelId, id);
      if (!object) throw new NotFoundError(rentalMessages.objectNotFound);
      return object;
    },

    create: (hotelId: string, input: RentalObjectInput) =>
      boundsChecked(() => rentalObjectsRepository.insert(db, hotelId, input)),

    async update(hotelId: string, id: string, input: RentalObjectInput, expected?: ExpectedVersion) {
      const object = await boundsChecked(() => rentalObjectsRepository.update(db, hotelId, id, input, expected));
      if (!object) throw await missingOrStaleObject(hotelId, id, expected);
      return object;
    },

    /** Bookings keep their object: one that has any, even cancelled, stays (as a draft) for their history. */
    async remove(hotelId: string, id: string, expected?: ExpectedVersion): Promise<void> {
      const deleted = await refusalsAs({ foreignKey: () => new ConflictError(rentalMessages.objectHasBookings) }, () =>
        rentalObjectsRepository.delete(db, hotelId, id, expected),
      );
      if (!deleted) throw await missingOrStaleObject(hotelId, id, expected);
    },
  };
}
