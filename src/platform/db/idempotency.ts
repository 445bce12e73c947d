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

type Answer<T> = { status: number; body: T };

/**
 * Claims the key for this request: undefined when it is now this request's, the first answer when the key was used
 * with the same body. The same key with another body is refused (422), and so, with 409, is one still being answered.
 */
async function claim<T>(
  db: Knex | Knex.Transaction,
  request: IdempotentRequest & { key: string },
  requestHash: string,
) {
  const where = { hotel_id: request.hotelId, scope: request.scope, key: request.key };
  const claimed = await db('idempotency_keys')
    .insert({ ...where, request_hash: requestHash })
    .onConflict(['hotel_id', 'scope', 'key'])
    .ignore()
    .returning('key');
  if (claimed.length > 0) return undefined;
  const stored = await db('idempotency_keys').where(where).first();
  if (stored.request_hash !== requestHash)
    throw new BusinessRuleError(idempotencyMessages.otherBody, [], 'idempotency_mismatch');
  if (stored.response_status === null) throw new ConflictError('Запрос с этим Idempotency-Key ещё выполняется');
  return { status: stored.response_status as number, body: stored.response_body as T };
}

async function keep<T>(db: Knex | Knex.Transaction, request: IdempotentRequest, response: Answer<T>): Promise<void> {
  await db('idempotency_keys')
    .where({ hotel_id: request.hotelId, scope: request.scope, key: request.key })
    .update({ response_status: response.status, response_body: JSON.stringify(response.body) });
}

/**
 * Runs `work` once per key: the key is claimed in the same transaction as the work, so a concurrent request with
 * the same key waits for the first to commit and then gets its stored answer; if the work fails, nothing is stored
 * and a retry runs it again. The same key with another body is refused (422).
 */
export async function idempotent<T>(
  trx: Knex.Transaction,
  request: IdempotentRequest,
  work: () => Promise<Answer<T>>,
): Promise<StoredResponse<T>> {
  const { key } = request;
  if (!key) return { ...(await work()), replayed: false };
  const first = await claim<T>(trx, { ...request, key }, hashOf(request.body));
  if (first) return { ...first, replayed: true };
  const response = await work();
  await keep(trx, request, response);
  return { ...response, replayed: false };
}

/**
 * The same keys for work that runs in transactions of its own (a route's handler, kept by mount): the claim commits
 * before the work, so a concurrent request with the key gets 409 instead of waiting, and is released when the work
 * fails or answers no record, so a retry runs it again. A process that dies in between leaves the key claimed (409)
 * until the keys are purged.
 */
export async function idempotentOutside<T>(
  db: Knex,
  request: IdempotentRequest & { key: string },
  work: () => Promise<Answer<T> | undefined>,
): Promise<StoredResponse<T> | undefined> {
  const { key } = request;
  const first = await claim<T>(db, { ...request, key }, hashOf(request.body));
  if (first) return { ...first, replayed: true };
  const where = { hotel_id: request.hotelId, scope: request.scope, key, response_status: null };
  const response = await work().catch(async (error: unknown) => {
    await db('idempotency_keys').where(where).delete();
    throw error;
  });
  if (response) await keep(db, request, response);
  else await db('idempotency_keys').where(where).delete();
  return response && { ...response, replayed: false };
}

/** Keys answer retries for a day; after that a client's retry is a new request. */
export async function purgeIdempotencyKeys(db: Knex | Knex.Transaction, keepHours = 24): Promise<number> {
  return db('idempotency_keys')
    .where('created_at', '<', db.raw('now() - make_interval(hours => ?)', [keepHours]))
    .delete();
}
