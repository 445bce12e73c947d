import { MODULES } from '../../src/modules/registry';
import { personalDataOf } from '../../src/platform/modules';
import { createTestApp, type TestApp } from '../helpers/app';

/** Columns that hold a person's name, contacts or documents, by their name. */
const PERSONAL_COLUMN = /(^|_)(last_name|first_name|middle_name|guest_name|phone|email|passport|birth_date|payer)(_|$)/;

/**
 * Tables with such columns that hold no guest's data, and why: retention erases guests, not staff, hotels or the
 * providers' accounts.
 */
const NOT_GUESTS: Record<string, string> = {
  users: 'staff accounts, removed by their hotel',
  hotels: "the hotel's own contact",
  account_requests: "a hotel's sign-up request: its owner's contact",
  blocks: "a group block's organiser (an agency or company contact), kept with the block's contract",
};

let t: TestApp;
beforeAll(() => {
  t = createTestApp();
});
afterAll(() => t.close());

describe("every table holding a person's name or contacts is erased by its module's declaration", () => {
  it('lists each such table among the places retention erases, or says why it holds no guest', async () => {
    const { rows } = await t.db.raw<{ rows: { table_name: string; column_name: string }[] }>(
      `SELECT table_name, column_name FROM information_schema.columns
        WHERE table_schema = 'public' ORDER BY table_name, column_name`,
    );
    const declared = new Set(personalDataOf(MODULES).map((place) => place.table));
    const undeclared = rows
      .filter((row) => PERSONAL_COLUMN.test(row.column_name))
      .filter((row) => !declared.has(row.table_name) && !(row.table_name in NOT_GUESTS))
      .map((row) => `${row.table_name}.${row.column_name}`);
    expect(undeclared).toEqual([]);
  });
});
