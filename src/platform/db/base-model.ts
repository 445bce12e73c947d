import { Model } from 'objection';

/** Tables with `updated_at` keep it current on every patch made through a model. */
export class BaseModel extends Model {
  updated_at?: Date;

  override $beforeUpdate(): void {
    this.updated_at = new Date();
  }
}

export const PG_ERRORS = {
  uniqueViolation: '23505',
  foreignKeyViolation: '23503',
  exclusionViolation: '23P01',
} as const;

/** The SQLSTATE and constraint of a PostgreSQL error, whether knex/objection wrapped it or not. */
export function databaseError(error: unknown): { code?: string; constraint?: string } {
  const pgError = (error as { nativeError?: unknown } | undefined)?.nativeError ?? error;
  const { code, constraint } = (pgError ?? {}) as { code?: string; constraint?: string };
  return { code, constraint };
}

/** PostgreSQL's unique_violation, with the constraint that was hit. */
export function uniqueViolation(error: unknown): string | undefined {
  const { code, constraint } = databaseError(error);
  return code === PG_ERRORS.uniqueViolation ? (constraint ?? 'unknown') : undefined;
}
