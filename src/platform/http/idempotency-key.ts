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

/** Whether a route's request headers declare `Idempotency-Key` (read by the route itself or kept by mount). */
export function declaresIdempotencyKey(headers: Joi.ObjectSchema | undefined): boolean {
  return Boolean((headers?.describe() as { keys?: Record<string, unknown> } | undefined)?.keys?.['idempotency-key']);
}

/**
 * The opt-out of a creating route whose answer is a new secret shown once (only its digest is kept): a kept answer
 * would store the secret in clear beside its key, and a second call only replaces the first, so nothing accumulates.
 */
export const answersNewSecret = {
  none: 'answers a new secret shown once, which a kept answer would store in clear; a second call replaces the first',
};
