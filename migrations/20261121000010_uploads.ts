import type { Knex } from 'knex';

/** Uploaded files: which hotel owns each object in the store, so only that hotel can delete it. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('uploads', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('hotel_id').notNullable().references('hotels.id').onDelete('CASCADE');
    t.text('key').notNullable().unique();
    t.text('folder').notNullable();
    t.text('content_type').notNullable();
    t.integer('size_bytes').notNullable();
    t.uuid('uploaded_by').nullable().references('users.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['hotel_id', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('uploads');
}
