import type { Db } from '../../platform/db/knex';
import type { hotelTable } from '../../platform/db/hotel-table';
import { NotFoundError } from '../../platform/errors';
import { missingOrStale, type ExpectedVersion } from '../../platform/http/concurrency';

type HotelTable<Row extends { id: string }, Input extends object> = ReturnType<typeof hotelTable<Row, Input>>;

/**
 * Reads and writes of one record of a hotel's table that refuse when they find nothing to act on: 404 with `notFound`,
 * or 412 when the record is there in another version than `If-Match` named.
 */
export function hotelRecords<Row extends { id: string }, Input extends object>(
  db: Db,
  table: HotelTable<Row, Input>,
  notFound: string,
) {
  const missingOrStaleRecord = (hotelId: string, id: string, expected: ExpectedVersion | undefined) =>
    missingOrStale(expected, () => table.find(db, hotelId, id), new NotFoundError(notFound));

  return {
    async get(hotelId: string, id: string): Promise<Row> {
      const row = await table.find(db, hotelId, id);
      if (!row) throw new NotFoundError(notFound);
      return row;
    },

    async update(hotelId: string, id: string, input: Input, expected?: ExpectedVersion): Promise<Row> {
      const row = await table.update(db, hotelId, id, input, expected);
      if (!row) throw await missingOrStaleRecord(hotelId, id, expected);
      return row;
    },

    async remove(hotelId: string, id: string, expected?: ExpectedVersion): Promise<void> {
      if (!(await table.delete(db, hotelId, id, expected))) throw await missingOrStaleRecord(hotelId, id, expected);
    },
  };
}
