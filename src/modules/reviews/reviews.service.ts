import type { Db } from '../../platform/db/knex';

export function createReviewsService(db: Db) {
  return { db };
}

export type ReviewsService = ReturnType<typeof createReviewsService>;
