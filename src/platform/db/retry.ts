import type { Knex } from 'knex';
import { databaseError } from './base-model';
import type { Db } from './knex';

/** Deadlocks and serialization failures are the database asking to try again; nothing was committed. */
const RETRYABLE = new Set(['40P01', '40001']);

export async function transactionWithRetry<T>(
  db: Db,
  work: (trx: Knex.Transaction) => Promise<T>,
  attempts = 4,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction(work);
    } catch (error) {
      const code = databaseError(error).code;
      if (!code || !RETRYABLE.has(code) || attempt >= attempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, 10 * attempt + Math.random() * 20));
    }
  }
}
