import type { Knex } from 'knex';

const VALUES = (statuses: string, refunds: string) => `status IN (${statuses})
    AND number > 0 AND items_total > 0 AND delivery_fee >= 0 AND total = items_total + delivery_fee
    AND length(note) <= 500 AND length(cancel_reason) BETWEEN 1 AND 500
    AND (cancel_reason IS NULL) = (status <> 'cancelled')
    AND (cancelled_at IS NULL) = (status <> 'cancelled')${refunds}`;

const BEFORE = VALUES(
  `'new', 'accepted', 'preparing', 'delivered', 'cancelled'`,
  `
    AND (delivered_at IS NULL) = (status <> 'delivered')`,
);

const AFTER = VALUES(
  `'new', 'accepted', 'preparing', 'delivered', 'cancelled', 'refunded'`,
  `
    AND (delivered_at IS NULL) = (status NOT IN ('delivered', 'refunded'))
    AND length(refund_reason) BETWEEN 1 AND 500
    AND (refund_reason IS NULL) = (status <> 'refunded')
    AND (refunded_at IS NULL) = (status <> 'refunded')`,
);

/**
 * A delivered order can be refunded (the wrong dish, a complaint): it stays delivered in its history and its bill line
 * is met by a negative one, so the stay's bill and the fiscal receipt's room-service share come back down.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE room_service_orders
    ADD COLUMN refund_reason text,
    ADD COLUMN refunded_at timestamptz,
    DROP CONSTRAINT room_service_orders_values_check,
    ADD CONSTRAINT room_service_orders_values_check CHECK (${AFTER})`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`UPDATE room_service_orders SET status = 'delivered' WHERE status = 'refunded'`);
  await knex.raw(`ALTER TABLE room_service_orders
    DROP CONSTRAINT room_service_orders_values_check,
    DROP COLUMN refund_reason,
    DROP COLUMN refunded_at,
    ADD CONSTRAINT room_service_orders_values_check CHECK (${BEFORE})`);
}
