import type { Knex } from 'knex';

/** House rules and automation toggles, one row per hotel (check-in/out times stay on `hotels`). */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('hotel_settings', (t) => {
    t.uuid('hotel_id').primary().references('hotels.id').onDelete('CASCADE');
    t.boolean('early_checkin_enabled').notNullable().defaultTo(false);
    t.boolean('late_checkout_enabled').notNullable().defaultTo(false);
    t.boolean('no_show_auto_cancel').notNullable().defaultTo(false);
    t.integer('no_show_hours').notNullable().defaultTo(24);
    t.boolean('auto_checkout').notNullable().defaultTo(false);
    t.integer('auto_checkout_hours').notNullable().defaultTo(2);
    t.text('room_assignment_strategy').notNullable().defaultTo('manual');
    t.text('smtp_host');
    t.integer('smtp_port');
    t.boolean('smtp_secure').notNullable().defaultTo(false);
    t.text('smtp_user');
    t.text('smtp_password_encrypted');
    t.text('smtp_from');
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(`ALTER TABLE hotel_settings
    ADD CONSTRAINT hotel_settings_strategy_check
      CHECK (room_assignment_strategy IN ('spread','together','sequential','manual')),
    ADD CONSTRAINT hotel_settings_hours_check CHECK (no_show_hours BETWEEN 1 AND 720 AND auto_checkout_hours BETWEEN 0 AND 720),
    ADD CONSTRAINT hotel_settings_smtp_port_check CHECK (smtp_port IS NULL OR smtp_port BETWEEN 1 AND 65535)`);
  await knex.raw('INSERT INTO hotel_settings (hotel_id) SELECT id FROM hotels ON CONFLICT DO NOTHING');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('hotel_settings');
}
