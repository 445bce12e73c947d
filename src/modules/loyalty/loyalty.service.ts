import type { Db } from '../../platform/db/knex';

export function createLoyaltyService(db: Db) {
  return { db };
}

export type LoyaltyService = ReturnType<typeof createLoyaltyService>;
