import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { ConflictError, BusinessRuleError } from '../errors';

export interface IdempotentRequest {
  hotelId: string;
  scope: string;
  /** The client's Idempotency-Key; without one the work simply runs. */
  key: string | undefined;
  body: unknown;
}

export interface StoredResponse<T> {
  status: number;
  body: T;
  replayed: boolean;
}

export const idempotencyMessages = {
  otherBody: 'Idempotency-Key уже использован с другим запросом',
};

function hashOf(body: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(body ?? null))
    .digest('hex');
}

/**
 * Runs `work` once per key: the key is claimed in the same transaction as the work, so a concurrent request with
 * the same key waits for the first to commit and then gets its stored answer; if the work fails, nothing is stored
 * and a retry runs it again. The same key with another body is refused (422).
 */
export async function idempotent<T>(
  trx: Knex.Transaction,
  request: IdempotentRequest,
  work: () => Promise<{ status: number; body: T }>,
): Promise<StoredResponse<T>> {
  if (!request.key) return { ...(await work()), replayed: false };
  const requestHash = hashOf(request.body);
  const claimed = await trx('idempotency_keys')
    .insert({ hotel_id: request.hotelId, scope: request.scope, key: request.key, request_hash: requestHash })
    .onConflict(['hotel_id', 'scope', 'key'])
    .ignore()
    .returning('key');
  if (claimed.length === 0) {
    const stored = await trx('idempotency_keys')
      .where({ hotel_id: request.hotelId, scope: request.scope, key: request.key })
      .first();
    if (stored.request_hash !== requestHash)
      throw new BusinessRuleError(idempotencyMessages.otherBody, [], 'idempotency_mismatch');
    if (stored.response_status === null) throw new ConflictError('Запрос с этим Idempotency-Key ещё выполняется');
    return { status: stored.response_status, body: stored.response_body as T, replayed: true };
  }
  const response = await work();
  await trx('idempotency_keys')
    .where({ hotel_id: request.hotelId, scope: request.scope, key: request.key })
    .update({ response_status: response.status, response_body: JSON.stringify(response.body) });
  return { ...response, replayed: false };
}

/** Keys answer retries for a day; after that a client's retry is a new request. */
export async function purgeIdempotencyKeys(db: Knex | Knex.Transaction, keepHours = 24): Promise<number> {
  return db('idempotency_keys')
    .where('created_at', '<', db.raw('now() - make_interval(hours => ?)', [keepHours]))
    .delete();
}
