import type { Knex } from 'knex';
import { normalizePhone } from '../src/platform/phone';

const BATCH = 1000;

/**
 * Guests' `phone_normalized` becomes the one normal form of platform/phone (E.164, `+79005550011`, parsed with the
 * hotel's country as default region) instead of the typed digits, so that `8 (900) 555-00-11`, `900 555-00-11` and
 * `+7 900 555-00-11` are one number for de-duplication, the blacklist and the widget's look-up; a phone that does not
 * parse gets none (kept as typed, never matched). What was typed (`phone`) is left as it is, and `updated_at` too:
 * nothing a person sees changes. Rows are rewritten a batch at a time, in id order.
 */
export async function up(knex: Knex): Promise<void> {
  await rewrite(knex, normalizePhone);
}

/** Back to the digits of what was typed. */
export async function down(knex: Knex): Promise<void> {
  await rewrite(knex, (phone) => phone.replace(/\D/g, '') || null);
}

async function rewrite(knex: Knex, normalForm: (phone: string) => string | null): Promise<void> {
  let afterId = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const rows: { id: string; phone: string }[] = await knex('guests')
      .select('id', 'phone')
      .whereNotNull('phone')
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(BATCH);
    if (rows.length === 0) return;
    const values = rows.map((row) => [row.id, normalForm(row.phone)]);
    await knex.raw(
      `UPDATE guests SET phone_normalized = v.normal_form
         FROM (VALUES ${values.map(() => '(?::uuid, ?::text)').join(', ')}) AS v(id, normal_form)
        WHERE guests.id = v.id AND guests.phone_normalized IS DISTINCT FROM v.normal_form`,
      values.flat(),
    );
    afterId = rows[rows.length - 1].id;
  }
}
