import type { Knex } from 'knex';

/** Housekeeping and maintenance tasks, their settings, and checklists (templates and per-task items). */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('housekeeping_settings', (t) => {
    t.uuid('hotel_id').primary().references('hotels.id').onDelete('CASCADE');
    t.boolean('checkout_auto').notNullable().defaultTo(true);
    t.text('checkout_priority').notNullable().defaultTo('medium');
    t.boolean('inspection_after_clean').notNullable().defaultTo(false);
    t.boolean('require_completion_photo').notNullable().defaultTo(false);
    t.integer('emergency_close_days').notNullable().defaultTo(1);
    t.text('auto_assign_strategy');
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(`ALTER TABLE housekeeping_settings
    ADD CONSTRAINT housekeeping_settings_values_check CHECK (checkout_priority IN ('urgent','medium','low')
      AND emergency_close_days BETWEEN 1 AND 365
      AND (auto_assign_strategy IS NULL OR auto_assign_strategy IN ('round_robin','least_loaded','first_free')))`);

  await knex.schema.createTable('housekeeping_tasks', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('hotel_id').notNullable().references('hotels.id').onDelete('CASCADE');
    t.uuid('room_id');
    t.text('category').notNullable();
    t.text('priority').notNullable().defaultTo('medium');
    t.text('status').notNullable().defaultTo('pending');
    t.uuid('assignee_id').references('users.id').onDelete('SET NULL');
    t.boolean('auto_assigned').notNullable().defaultTo(false);
    t.text('source').notNullable().defaultTo('manual');
    t.text('notes').notNullable().defaultTo('');
    t.specificType('photos', 'text[]').notNullable().defaultTo('{}');
    t.text('resolution_notes').notNullable().defaultTo('');
    t.specificType('resolution_photos', 'text[]').notNullable().defaultTo('{}');
    t.boolean('requires_minibar_check').notNullable().defaultTo(false);
    t.timestamp('minibar_checked_at', { useTz: true });
    t.uuid('created_by').references('users.id').onDelete('SET NULL');
    t.timestamp('started_at', { useTz: true });
    t.timestamp('completed_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['hotel_id', 'id']);
    t.foreign(['hotel_id', 'room_id']).references(['hotel_id', 'id']).inTable('rooms').onDelete('CASCADE');
    t.index(['hotel_id', 'status', 'created_at']);
    t.index(['hotel_id', 'assignee_id', 'status']);
    t.index(['hotel_id', 'room_id']);
  });
  await knex.raw(`ALTER TABLE housekeeping_tasks
    ADD CONSTRAINT housekeeping_tasks_values_check CHECK (category IN ('housekeeping','maintenance')
      AND priority IN ('urgent','medium','low') AND status IN ('pending','in_progress','done','cancelled')
      AND source IN ('manual','checkout'))`);

  await knex.schema.createTable('checklist_templates', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('hotel_id').notNullable().references('hotels.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.text('task_category').notNullable();
    t.uuid('room_category_id');
    t.boolean('is_active').notNullable().defaultTo(true);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['hotel_id', 'id']);
    t.unique(['hotel_id', 'name']);
    t.foreign(['hotel_id', 'room_category_id'])
      .references(['hotel_id', 'id'])
      .inTable('room_categories')
      .onDelete('CASCADE');
  });
  await knex.raw(`ALTER TABLE checklist_templates ADD CONSTRAINT checklist_templates_category_check
    CHECK (task_category IN ('housekeeping','maintenance'))`);

  await knex.schema.createTable('checklist_template_items', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('hotel_id').notNullable();
    t.uuid('template_id').notNullable();
    t.text('text').notNullable();
    t.integer('position').notNullable();
    t.foreign(['hotel_id', 'template_id'])
      .references(['hotel_id', 'id'])
      .inTable('checklist_templates')
      .onDelete('CASCADE');
    t.index(['template_id', 'position']);
  });

  await knex.schema.createTable('task_checklist_items', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('hotel_id').notNullable();
    t.uuid('task_id').notNullable();
    t.text('text').notNullable();
    t.integer('position').notNullable();
    t.timestamp('completed_at', { useTz: true });
    t.uuid('completed_by').references('users.id').onDelete('SET NULL');
    t.foreign(['hotel_id', 'task_id']).references(['hotel_id', 'id']).inTable('housekeeping_tasks').onDelete('CASCADE');
    t.index(['task_id', 'position']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('task_checklist_items');
  await knex.schema.dropTable('checklist_template_items');
  await knex.schema.dropTable('checklist_templates');
  await knex.schema.dropTable('housekeeping_tasks');
  await knex.schema.dropTable('housekeeping_settings');
}
