import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('users', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('hotel_id').references('hotels.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.text('email').notNullable().unique();
    t.text('password_hash');
    t.text('role').notNullable();
    t.text('phone');
    t.text('position').notNullable().defaultTo('');
    t.boolean('active').notNullable().defaultTo(true);
    t.boolean('email_confirmed').notNullable().defaultTo(false);
    t.text('confirmation_token').unique();
    t.timestamp('confirmation_sent_at', { useTz: true });
    t.text('reset_token').unique();
    t.timestamp('reset_token_expires', { useTz: true });
    t.text('invite_token').unique();
    t.timestamp('invite_expires', { useTz: true });
    t.text('invitation_status');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['hotel_id', 'created_at']);
  });
  await knex.raw(`ALTER TABLE users
    ADD CONSTRAINT users_email_normalized CHECK (email = lower(btrim(email))),
    ADD CONSTRAINT users_role_check CHECK (role IN
      ('super_admin','hotel_admin','manager','receptionist','accountant','security','technician','housekeeper')),
    ADD CONSTRAINT users_tenant_check CHECK ((role = 'super_admin') = (hotel_id IS NULL)),
    ADD CONSTRAINT users_invitation_status_check CHECK (invitation_status IN ('pending','accepted','expired'))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('users');
}
