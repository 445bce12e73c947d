import type { Knex } from 'knex';

/**
 * Money held or taken through the payment provider: security deposits (hold, full charge or cash) with their refunds,
 * and online payments of bookings. Each row names the provider's payment it follows; the provider is the truth, these
 * rows are what was last read from it (and what staff asked for meanwhile).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('deposits', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('hotel_id').notNullable();
    t.uuid('booking_id').notNullable();
    t.text('kind').notNullable();
    t.text('status').notNullable();
    t.decimal('amount', 12, 2).notNullable();
    t.text('currency').notNullable();
    // Kept by the hotel: the deductions captured from a hold or kept from a charge or cash deposit.
    t.decimal('captured_amount', 12, 2).notNullable().defaultTo(0);
    t.decimal('refunded_amount', 12, 2).notNullable().defaultTo(0);
    // The deductions staff chose at release: [{ name, amount }], the lines of the guest's statement.
    t.jsonb('deductions').notNullable().defaultTo('[]');
    // The operation staff asked for that the workflow has not carried out yet (one at a time).
    t.text('pending_operation');
    t.text('card_last4');
    t.text('card_brand');
    t.text('provider_payment_id');
    t.text('confirmation_url');
    t.text('return_url');
    t.text('cancel_reason');
    t.text('guest_email');
    t.uuid('created_by').references('users.id').onDelete('SET NULL');
    t.timestamp('confirmed_at', { useTz: true });
    t.timestamp('closed_at', { useTz: true });
    t.timestamp('statement_sent_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['hotel_id', 'id']);
    t.foreign(['hotel_id', 'booking_id']).references(['hotel_id', 'id']).inTable('bookings');
    t.index(['hotel_id', 'booking_id', 'created_at']);
    t.index(['hotel_id', 'created_at', 'id']);
  });
  await knex.raw(`CREATE UNIQUE INDEX deposits_provider_payment_unique ON deposits (provider_payment_id)
    WHERE provider_payment_id IS NOT NULL`);
  // A booking has at most one deposit that is not finished: a second one is refused until the first is closed.
  await knex.raw(`CREATE UNIQUE INDEX deposits_one_open_per_booking ON deposits (hotel_id, booking_id)
    WHERE closed_at IS NULL`);
  await knex.raw(`ALTER TABLE deposits ADD CONSTRAINT deposits_values_check CHECK (
    kind IN ('hold', 'yookassa_charge', 'cash')
    AND status IN ('hold_created', 'hold_confirmed', 'paid', 'paid_cash', 'captured', 'released',
                   'partially_refunded', 'refunded', 'cancelled', 'expired')
    AND (pending_operation IS NULL OR pending_operation IN ('release', 'cancel', 'refund'))
    AND amount > 0 AND captured_amount >= 0 AND refunded_amount >= 0
    AND captured_amount + refunded_amount <= amount
    AND jsonb_typeof(deductions) = 'array')`);

  await knex.schema.createTable('deposit_refunds', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('hotel_id').notNullable();
    t.uuid('deposit_id').notNullable();
    t.decimal('amount', 12, 2).notNullable();
    t.text('status').notNullable().defaultTo('pending');
    t.text('provider_refund_id');
    t.text('failure_reason');
    t.uuid('created_by').references('users.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('completed_at', { useTz: true });
    t.foreign(['hotel_id', 'deposit_id']).references(['hotel_id', 'id']).inTable('deposits');
    t.index(['hotel_id', 'deposit_id']);
  });
  await knex.raw(`ALTER TABLE deposit_refunds ADD CONSTRAINT deposit_refunds_values_check CHECK (
    amount > 0 AND status IN ('pending', 'succeeded', 'failed'))`);

  await knex.schema.createTable('online_payments', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('hotel_id').notNullable();
    t.uuid('booking_id').notNullable();
    t.decimal('amount', 12, 2).notNullable();
    t.text('currency').notNullable();
    t.text('status').notNullable().defaultTo('pending');
    t.text('provider_payment_id');
    t.text('confirmation_url');
    t.text('return_url');
    t.text('cancel_reason');
    // The booking's ledger row this payment became: set once, in the transaction that records it.
    t.uuid('ledger_payment_id');
    t.uuid('created_by').references('users.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['hotel_id', 'id']);
    t.foreign(['hotel_id', 'booking_id']).references(['hotel_id', 'id']).inTable('bookings');
    t.index(['hotel_id', 'booking_id', 'created_at']);
  });
  await knex.raw(`CREATE UNIQUE INDEX online_payments_provider_payment_unique ON online_payments (provider_payment_id)
    WHERE provider_payment_id IS NOT NULL`);
  await knex.raw(`ALTER TABLE online_payments ADD CONSTRAINT online_payments_values_check CHECK (
    amount > 0 AND status IN ('pending', 'succeeded', 'canceled'))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('online_payments');
  await knex.schema.dropTable('deposit_refunds');
  await knex.schema.dropTable('deposits');
}
