import type { Db, DbOrTrx } from '../../platform/db/knex';
import { refusalsAs } from '../../platform/db/base-model';
import type { PageRequest } from '../../platform/db/keyset';
import { BusinessRuleError, ConflictError, NotFoundError, ValidationError } from '../../platform/errors';
import { missingOrStale, type ExpectedVersion } from '../../platform/http/concurrency';
import type { UploadsService } from '../uploads';
import { categoriesRepository, roomsRepository } from './rooms.repository';
import { publishRoomUpdated, updateRoomState } from './rooms.state';
import type { CategoryInput, RoomFilter, RoomInput } from './rooms.types';

export const roomMessages = {
  categoryNotFound: 'Категория не найдена',
  roomNotFound: 'Номер не найден',
  categoryNameTaken: 'Категория с таким названием уже существует',
  roomNumberTaken: 'Номер с таким названием уже существует',
  categoryHasRooms: 'В категории есть номера: сначала перенесите или удалите их',
  categoryHasBookings: 'Категория указана в бронированиях: удалить её нельзя, сделайте её неактивной',
  categoryHeldByBlock: 'Категория указана в групповом блоке: удалить её нельзя, сделайте её неактивной',
  roomHasHistory:
    'У номера есть история (расход минибара, проживания): удалить его нельзя, закройте его статусом closed',
  cleaningIsAutomatic: 'Статус «cleaning» устанавливается только задачей уборки в работе',
  maintenanceSpan: 'Окончание обслуживания должно быть позже начала',
};

export function createRoomsService(db: Db, deps: { uploads: Pick<UploadsService, 'assertOwnUploads'> }) {
  const assertOwnPhotos = (hotelId: string, photos: string[] | undefined) =>
    deps.uploads.assertOwnUploads(hotelId, photos, 'photos');

  async function assertCategory(hotelId: string, categoryId: string | undefined): Promise<void> {
    if (categoryId && !(await categoriesRepository.find(db, hotelId, categoryId))) {
      throw new ValidationError(roomMessages.categoryNotFound, [
        { path: 'body.category_id', message: roomMessages.categoryNotFound },
      ]);
    }
  }

  function assertMaintenanceSpan(input: RoomInput): void {
    const { maintenance_from: from, maintenance_to: to } = input;
    if (from && to && new Date(to) <= new Date(from)) throw new ValidationError(roomMessages.maintenanceSpan);
  }

  const conflictsAsErrors = <T>(write: () => Promise<T>) =>
    refusalsAs(
      {
        unique: {
          room_categories_hotel_id_name_unique: () => new ConflictError(roomMessages.categoryNameTaken),
          rooms_hotel_id_number_unique: () => new ConflictError(roomMessages.roomNumberTaken),
        },
      },
      write,
    );

  const categoryMissingOrStale = (hotelId: string, id: string, expected: ExpectedVersion | undefined) =>
    missingOrStale(
      expected,
      () => categoriesRepository.find(db, hotelId, id),
      new NotFoundError(roomMessages.categoryNotFound),
    );
  const roomMissingOrStale = (hotelId: string, id: string, expected: ExpectedVersion | undefined) =>
    missingOrStale(expected, () => roomsRepository.find(db, hotelId, id), new NotFoundError(roomMessages.roomNotFound));

  async function getRoom(hotelId: string, id: string) {
    const room = await roomsRepository.find(db, hotelId, id);
    if (!room) throw new NotFoundError(roomMessages.roomNotFound);
    return room;
  }

  return {
    /** A room of the hotel (undefined when it has none by that id), within the caller's transaction when given. */
    findRoom: (hotelId: string, id: string, conn: DbOrTrx = db) => roomsRepository.find(conn, hotelId, id),
    findCategory: (hotelId: string, id: string, conn: DbOrTrx = db) => categoriesRepository.find(conn, hotelId, id),
    /** A room and its category (a booking being written needs both), in one query. */
    findRoomWithCategory: (hotelId: string, id: string, conn: DbOrTrx = db) =>
      roomsRepository.findWithCategory(conn, hotelId, id),
    numbersOf: (hotelId: string, ids: string[]) =>
      ids.length ? roomsRepository.numbersOf(db, hotelId, ids) : Promise.resolve([]),
    roomsOfCategory: (hotelId: string, categoryId: string, conn: DbOrTrx = db) =>
      roomsRepository.ofCategory(conn, hotelId, categoryId),
    /** Changes what the room board shows and tells the hotel's staff, in the caller's transaction. */
    updateState: updateRoomState,

    listCategories: (hotelId: string, { limit, cursor, ...filter }: { is_active?: boolean } & PageRequest) =>
      categoriesRepository.list(db, hotelId, filter, { limit, cursor }),

    async getCategory(hotelId: string, id: string) {
      const category = await categoriesRepository.find(db, hotelId, id);
      if (!category) throw new NotFoundError(roomMessages.categoryNotFound);
      return category;
    },

    async createCategory(hotelId: string, input: CategoryInput) {
      await assertOwnPhotos(hotelId, input.photos);
      return conflictsAsErrors(() => categoriesRepository.insert(db, hotelId, input));
    },

    async updateCategory(hotelId: string, id: string, input: CategoryInput, expected?: ExpectedVersion) {
      await assertOwnPhotos(hotelId, input.photos);
      const category = await conflictsAsErrors(() => categoriesRepository.update(db, hotelId, id, input, expected));
      if (!category) throw await categoryMissingOrStale(hotelId, id, expected);
      return category;
    },

    async deleteCategory(hotelId: string, id: string, expected?: ExpectedVersion): Promise<void> {
      // Bookings keep the category they were made in, also after their room moved to another one.
      // A group block holding the category refuses too (its nights' key; migration 93).
      const referenced = (constraint: string) =>
        new ConflictError(
          constraint.startsWith('block_nights_') ? roomMessages.categoryHeldByBlock : roomMessages.categoryHasBookings,
        );
      await refusalsAs({ foreignKey: referenced }, () =>
        db.transaction(async (trx) => {
          if ((await categoriesRepository.countRooms(trx, hotelId, id)) > 0)
            throw new ConflictError(roomMessages.categoryHasRooms);
          if (!(await categoriesRepository.delete(trx, hotelId, id, expected)))
            throw await categoryMissingOrStale(hotelId, id, expected);
        }),
      );
    },

    listRooms: (hotelId: string, { limit, cursor, ...filter }: RoomFilter & PageRequest) =>
      roomsRepository.list(db, hotelId, filter, { limit, cursor }),

    getRoom,

    async createRoom(hotelId: string, input: RoomInput & { category_id: string }) {
      if (input.status === 'cleaning') throw new BusinessRuleError(roomMessages.cleaningIsAutomatic);
      await assertOwnPhotos(hotelId, input.photos);
      assertMaintenanceSpan(input);
      await assertCategory(hotelId, input.category_id);
      return conflictsAsErrors(() => roomsRepository.insert(db, hotelId, input));
    },

    async updateRoom(hotelId: string, id: string, input: RoomInput, expected?: ExpectedVersion) {
      if (input.status === 'cleaning') throw new BusinessRuleError(roomMessages.cleaningIsAutomatic);
      await assertOwnPhotos(hotelId, input.photos);
      await assertCategory(hotelId, input.category_id);
      const current = await getRoom(hotelId, id);
      assertMaintenanceSpan({ ...current, ...input });
      return conflictsAsErrors(() =>
        db.transaction(async (trx) => {
          const room = await roomsRepository.update(trx, hotelId, id, input, expected);
          if (!room) throw await roomMissingOrStale(hotelId, id, expected);
          const boardChanged = ['status', 'maintenance_from', 'maintenance_to'].some((field) => field in input);
          if (boardChanged) await publishRoomUpdated(trx, room);
          return room;
        }),
      );
    },

    async deleteRoom(hotelId: string, id: string, expected?: ExpectedVersion): Promise<void> {
      const deleted = await refusalsAs({ foreignKey: () => new ConflictError(roomMessages.roomHasHistory) }, () =>
        roomsRepository.delete(db, hotelId, id, expected),
      );
      if (!deleted) throw await roomMissingOrStale(hotelId, id, expected);
    },
  };
}

export type RoomsService = ReturnType<typeof createRoomsService>;
