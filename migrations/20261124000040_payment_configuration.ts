import type { Knex } from 'knex';

/**
 * A hotel's payment configuration: the payment methods its desk offers, the deposit rules beside the payment settings,
 * and its online payment gateways. A gateway's secret key is stored only as an AES-256-GCM envelope (`encryptSecret`);
 * `secret_key_id` names the key it is under, so `npm run rotate-keys` finds the rows a key rotation must rewrite.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('payment_methods', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('hotel_id').notNullable().references('hotels.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.text('currency').notNullable().defaultTo('RUB');
    t.text('type').notNullable();
    t.boolean('is_active').notNullable().defaultTo(true);
    t.integer('sort_order').notNullable().defaultTo(0);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['hotel_id', 'sort_order', 'name']);
  });
  await knex.raw(`ALTER TABLE payment_methods
    ADD CONSTRAINT payment_methods_values_check CHECK (char_length(name) BETWEEN 1 AND 100
      AND currency ~ '^[A-Z]{3}$' AND sort_order BETWEEN 0 AND 10000),
    ADD CONSTRAINT payment_methods_type_check CHECK (type IN ('cash','card','transfer','online','other'))`);

  // A provider's hold lives 7 days: stays longer than the threshold are charged in full instead of held.
  await knex.schema.alterTable('payment_settings', (t) => {
    t.boolean('release_requires_checkout').notNullable().defaultTo(true);
    t.boolean('long_stay_charge_enabled').notNullable().defaultTo(false);
    t.integer('long_stay_threshold_days').notNullable().defaultTo(6);
    t.text('hold_expiry_action').notNullable().defaultTo('release');
    t.integer('online_payment_ttl_minutes').notNullable().defaultTo(60);
    t.jsonb('deduction_presets').notNullable().defaultTo('[]');
  });
  await knex.raw(`ALTER TABLE payment_settings
    ADD CONSTRAINT payment_settings_deposit_check CHECK (long_stay_threshold_days BETWEEN 1 AND 365
      AND online_payment_ttl_minutes BETWEEN 5 AND 10080 AND jsonb_typeof(deduction_presets) = 'array'),
    ADD CONSTRAINT payment_settings_hold_expiry_check CHECK (hold_expiry_action IN ('capture','release'))`);

  await knex.schema.createTable('payment_gateways', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('hotel_id').notNullable().references('hotels.id').onDelete('CASCADE');
    t.text('provider').notNullable();
    t.text('shop_id').notNullable();
    t.text('secret_key_encrypted').notNullable();
    t.text('secret_key_id').notNullable();
    t.boolean('auto_confirm_on_payment').notNullable().defaultTo(false);
    t.boolean('test_mode').notNullable().defaultTo(true);
    t.boolean('is_active').notNullable().defaultTo(true);
    t.text('return_url');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['hotel_id', 'provider']);
    // A provider's notification names the shop only: the hotels are found by it.
    t.index(['provider', 'shop_id']);
  });
  await knex.raw(`ALTER TABLE payment_gateways
    ADD CONSTRAINT payment_gateways_provider_check CHECK (provider IN ('yookassa')),
    ADD CONSTRAINT payment_gateways_shop_id_check CHECK (char_length(shop_id) BETWEEN 1 AND 64
      AND (provider <> 'yookassa' OR shop_id ~ '^[0-9]+$')),
    ADD CONSTRAINT payment_gateways_secret_key_check CHECK (split_part(secret_key_encrypted, '.', 2) = secret_key_id),
    ADD CONSTRAINT payment_gateways_return_url_check CHECK (return_url IS NULL
      OR (char_length(return_url) <= 2000 AND (return_url LIKE 'http://%' OR return_url LIKE 'https://%')))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('payment_gateways');
  await knex.raw(`ALTER TABLE payment_settings
    DROP COLUMN release_requires_checkout, DROP COLUMN long_stay_charge_enabled, DROP COLUMN long_stay_threshold_days,
    DROP COLUMN hold_expiry_action, DROP COLUMN online_payment_ttl_minutes, DROP COLUMN deduction_presets`);
  await knex.schema.dropTable('payment_methods');
}
