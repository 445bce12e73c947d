import type { Request } from 'express';
import { ValidationError } from '../errors';

/** Keys are stored beside the answer they replay, so their size is bounded like any other input. */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 200;

const KEY_SHAPE = new RegExp(`^[\\x20-\\x7e]{1,${IDEMPOTENCY_KEY_MAX_LENGTH}}$`);
const refusal = `"Idempotency-Key" must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} printable ASCII characters`;

/**
 * The `Idempotency-Key` header of a request its client may retry (undefined without one). A key that cannot be kept
 * is refused (400) rather than ignored: ignoring it would silently drop the protection the client asked for.
 */
export function idempotencyKey(req: Request): string | undefined {
  const key = req.headers['idempotency-key'];
  if (key === undefined) return undefined;
  if (typeof key === 'string' && KEY_SHAPE.test(key)) return key;
  throw new ValidationError(`Некорректные данные: ${refusal}`, [{ path: 'headers.idempotency-key', message: refusal }]);
}
