import type { Knex } from 'knex';

const ORDER_VALUES = `status IN ('new', 'accepted', 'preparing', 'delivered', 'cancelled')
    AND number > 0 AND items_total > 0 AND delivery_fee >= 0 AND total = items_total + delivery_fee
    AND length(note) <= 500 AND length(cancel_reason) BETWEEN 1 AND 500
    AND (cancel_reason IS NULL) = (status <> 'cancelled')
    AND (delivered_at IS NULL) = (status <> 'delivered')
    AND (cancelled_at IS NULL) = (status <> 'cancelled')`;

/** Two random digits (from the strong generator behind gen_random_uuid; 65536 values mod 100: a bias of 1/655). */
const TWO_DIGITS = `lpad(((get_byte(uuid_send(gen_random_uuid()), 0) * 256
  + get_byte(uuid_send(gen_random_uuid()), 0)) % 100)::text, 2, '0')`;

/**
 * Room service's secrets, hardened. Stay codes grow to 8 digits: the codes given so far get two random digits more
 * (staff read a stay's code again). An order's status token is no longer random with its digest stored: it is an HMAC
 * of the order under a server key, recomputed when needed, so the digest column goes, and the tokens the replay
 * answers of `Idempotency-Key` kept in plain text are taken out of them (a replay recomputes the token). Tokens
 * answered before stop reading; the stay's list of orders still shows them.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE room_service_stay_codes DROP CONSTRAINT room_service_stay_codes_values_check`);
  await knex.raw(`UPDATE room_service_stay_codes SET code = code || ${TWO_DIGITS}`);
  await knex.raw(`ALTER TABLE room_service_stay_codes ADD CONSTRAINT room_service_stay_codes_values_check
    CHECK (code ~ '^[0-9]{8}$')`);

  await knex.raw(`ALTER TABLE room_service_orders
    DROP CONSTRAINT room_service_orders_values_check,
    DROP COLUMN status_token_sha256,
    ADD CONSTRAINT room_service_orders_values_check CHECK (${ORDER_VALUES})`);
  await knex.raw(`UPDATE idempotency_keys SET response_body = response_body - 'status_token'
    WHERE scope LIKE 'room_service.%'`);
}

/** Back to 6-digit codes (their first six) and stored token digests (random: the tokens answered since do not read). */
export async function down(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE room_service_orders ADD COLUMN status_token_sha256 text`);
  await knex.raw(
    `UPDATE room_service_orders SET status_token_sha256 = encode(sha256(uuid_send(gen_random_uuid())), 'hex')`,
  );
  await knex.raw(`ALTER TABLE room_service_orders
    ALTER COLUMN status_token_sha256 SET NOT NULL,
    DROP CONSTRAINT room_service_orders_values_check,
    ADD CONSTRAINT room_service_orders_values_check CHECK (${ORDER_VALUES}
    AND status_token_sha256 ~ '^[0-9a-f]{64}$')`);

  await knex.raw(`ALTER TABLE room_service_stay_codes DROP CONSTRAINT room_service_stay_codes_values_check`);
  await knex.raw(`UPDATE room_service_stay_codes SET code = left(code, 6)`);
  await knex.raw(`ALTER TABLE room_service_stay_codes ADD CONSTRAINT room_service_stay_codes_values_check
    CHECK (code ~ '^[0-9]{6}$')`);
}
