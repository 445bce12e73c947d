import Joi from 'joi';

/** Keys are stored beside the answer they replay, so their size is bounded like any other input. */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 200;

const refusal = `"Idempotency-Key" must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} printable ASCII characters`;

/**
 * The `Idempotency-Key` header of a request its client may retry: declared by the route (`request.headers`), so mount
 * refuses a key that cannot be kept (400) rather than ignoring it, which would silently drop the protection the
 * client asked for, and the OpenAPI document shows it.
 */
export const idempotencyKeyHeader = Joi.object({
  'idempotency-key': Joi.string()
    .pattern(new RegExp(`^[\\x20-\\x7e]{1,${IDEMPOTENCY_KEY_MAX_LENGTH}}$`), 'printable ASCII')
    .messages({
      'string.pattern.name': refusal,
      'string.empty': refusal,
    })
    .description(
      `Makes a retry safe: the same key and body answer the first result again; the same key with another body is ` +
        `refused (422). 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} printable ASCII characters.`,
    ),
}).unknown(true);
