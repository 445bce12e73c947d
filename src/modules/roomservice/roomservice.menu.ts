import type { PageRequest } from '../../platform/db/keyset';
import { refusalsAs } from '../../platform/db/base-model';
import type { Db, DbOrTrx } from '../../platform/db/knex';
import { ConflictError, NotFoundError, ValidationError } from '../../platform/errors';
import { missingOrStale, type ExpectedVersion } from '../../platform/http/concurrency';
import type { UploadsService } from '../uploads';
import { bodyError, roomServiceMessages as messages } from './roomservice.messages';
import { categoriesRepository, itemsRepository } from './roomservice.repository';
import type { MenuCategory, MenuCategoryInput, MenuItem, MenuItemFilter, MenuItemInput } from './roomservice.types';

export interface MenuDependencies {
  uploads: Pick<UploadsService, 'assertOwnUploads'>;
}

/** A record of the menu that is not there (or not at the version `If-Match` named). */
const absentOr412 = (expected: ExpectedVersion | undefined, stillThere: () => Promise<unknown>, message: string) =>
  missingOrStale(expected, stillThere, new NotFoundError(message));

/** The hotel's menu as staff keep it: categories, and items with their prices, photos and availability. */
export function createMenu(db: Db, deps: MenuDependencies) {
  const categoryNameTaken = <T>(write: () => Promise<T>) =>
    refusalsAs(
      { unique: { room_service_categories_name_unique: () => new ConflictError(messages.categoryNameTaken) } },
      write,
    );
  const itemNameTaken = <T>(write: () => Promise<T>) =>
    refusalsAs({ unique: { room_service_items_name_unique: () => new ConflictError(messages.itemNameTaken) } }, write);

  /** An item names a category of its own hotel, and shows a photo its hotel uploaded. */
  async function assertItemRefs(conn: DbOrTrx, hotelId: string, input: MenuItemInput) {
    if (input.category_id && !(await categoriesRepository.find(conn, hotelId, input.category_id)))
      throw bodyError('category_id', messages.categoryNotFound);
    if (input.photo_url) {
      try {
        await deps.uploads.assertOwnUploads(hotelId, [input.photo_url], 'photo_url', conn);
      } catch (error) {
        if (error instanceof ValidationError) throw bodyError('photo_url', messages.foreignPhoto);
        throw error;
      }
    }
  }

  const categories = {
    list: (hotelId: string, page: PageRequest) => categoriesRepository.list(db, hotelId, page),

    async get(hotelId: string, id: string): Promise<MenuCategory> {
      const category = await categoriesRepository.find(db, hotelId, id);
      if (!category) throw new NotFoundError(messages.categoryNotFound);
      return category;
    },

    create: (hotelId: string, input: MenuCategoryInput) =>
      categoryNameTaken(() => categoriesRepository.insert(db, hotelId, input)),

    async update(hotelId: string, id: string, input: MenuCategoryInput, expected?: ExpectedVersion) {
      const category = await categoryNameTaken(() => categoriesRepository.update(db, hotelId, id, input, expected));
      if (category) return category;
      throw await absentOr412(expected, () => categoriesRepository.find(db, hotelId, id), messages.categoryNotFound);
    },

    async remove(hotelId: string, id: string, expected?: ExpectedVersion): Promise<void> {
      const deleted = await refusalsAs({ foreignKey: () => new ConflictError(messages.categoryHasItems) }, () =>
        categoriesRepository.delete(db, hotelId, id, expected),
      );
      if (!deleted)
        throw await absentOr412(expected, () => categoriesRepository.find(db, hotelId, id), messages.categoryNotFound);
    },
  };

  const items = {
    list: (hotelId: string, { limit, cursor, ...filter }: MenuItemFilter & PageRequest) =>
      itemsRepository.list(db, hotelId, filter, { limit, cursor }),

    async get(hotelId: string, id: string): Promise<MenuItem> {
      const item = await itemsRepository.find(db, hotelId, id);
      if (!item) throw new NotFoundError(messages.itemNotFound);
      return item;
    },

    async create(hotelId: string, input: MenuItemInput) {
      await assertItemRefs(db, hotelId, input);
      return itemNameTaken(() => itemsRepository.insert(db, hotelId, input));
    },

    async update(hotelId: string, id: string, input: MenuItemInput, expected?: ExpectedVersion) {
      await assertItemRefs(db, hotelId, input);
      const item = await itemNameTaken(() => itemsRepository.update(db, hotelId, id, input, expected));
      if (item) return item;
      throw await absentOr412(expected, () => itemsRepository.find(db, hotelId, id), messages.itemNotFound);
    },

    /** Orders placed keep their copy of the item's name and price. */
    async remove(hotelId: string, id: string, expected?: ExpectedVersion): Promise<void> {
      if (!(await itemsRepository.delete(db, hotelId, id, expected)))
        throw await absentOr412(expected, () => itemsRepository.find(db, hotelId, id), messages.itemNotFound);
    },
  };

  return { categories, items };
}
