import { refusalsAs } from '../../platform/db/base-model';
import type { Db, DbOrTrx } from '../../platform/db/knex';
import type { PageRequest } from '../../platform/db/keyset';
import { ConflictError, NotFoundError, ValidationError } from '../../platform/errors';
import { missingOrStale, type ExpectedVersion } from '../../platform/http/concurrency';
import { templatesRepository, type TemplateRow } from './housekeeping.repository';
import type { TaskCategory } from './housekeeping.types';

export interface TemplateInput {
  name?: string;
  task_category?: TaskCategory;
  room_category_id?: string | null;
  is_active?: boolean;
  items?: string[];
}

const messages = {
  notFound: 'Шаблон чек-листа не найден',
  nameTaken: 'Шаблон с таким названием уже существует',
  categoryNotFound: 'Категория номеров не найдена',
};

/**
 * Checklist templates: a task gets a copy of the template for its category (one for the room's category wins over
 * a general one) when it is created; later edits of the template do not change tasks already made.
 */
export function createChecklistTemplates(db: Db) {
  async function withItems(conn: DbOrTrx, hotelId: string, rows: TemplateRow[]) {
    const items = await templatesRepository.items(
      conn,
      hotelId,
      rows.map((row) => row.id),
    );
    return rows.map((row) => ({
      ...row,
      items: items.filter((item) => item.template_id === row.id).map((item) => item.text),
    }));
  }

  const templateMissingOrStale = (hotelId: string, id: string, expected: ExpectedVersion | undefined) =>
    missingOrStale(expected, () => templatesRepository.find(db, hotelId, id), new NotFoundError(messages.notFound));

  async function save(hotelId: string, id: string | undefined, input: TemplateInput, expected?: ExpectedVersion) {
    const { items, ...fields } = input;
    const refusals = {
      unique: { checklist_templates_hotel_id_name_unique: () => new ConflictError(messages.nameTaken) },
      foreignKey: () =>
        new ValidationError(messages.categoryNotFound, [
          { path: 'body.room_category_id', message: messages.categoryNotFound },
        ]),
    };
    return refusalsAs(refusals, () =>
      db.transaction(async (trx) => {
        const row = id
          ? await templatesRepository.update(trx, hotelId, id, fields, expected)
          : await templatesRepository.insert(trx, hotelId, fields);
        if (!row) throw await templateMissingOrStale(hotelId, id!, expected);
        if (items) await templatesRepository.replaceItems(trx, hotelId, row.id, items);
        return (await withItems(trx, hotelId, [row]))[0];
      }),
    );
  }

  return {
    async list(hotelId: string, { limit, cursor, ...filter }: { task_category?: TaskCategory } & PageRequest) {
      const page = await templatesRepository.list(db, hotelId, filter, { limit, cursor });
      return { ...page, items: await withItems(db, hotelId, page.items) };
    },
    async get(hotelId: string, id: string) {
      const row = await templatesRepository.find(db, hotelId, id);
      if (!row) throw new NotFoundError(messages.notFound);
      return (await withItems(db, hotelId, [row]))[0];
    },
    create: (hotelId: string, input: TemplateInput) => save(hotelId, undefined, input),
    update: (hotelId: string, id: string, input: TemplateInput, expected?: ExpectedVersion) =>
      save(hotelId, id, input, expected),
    async remove(hotelId: string, id: string, expected?: ExpectedVersion) {
      if (!(await templatesRepository.delete(db, hotelId, id, expected)))
        throw await templateMissingOrStale(hotelId, id, expected);
    },
  };
}

export type ChecklistTemplates = ReturnType<typeof createChecklistTemplates>;
