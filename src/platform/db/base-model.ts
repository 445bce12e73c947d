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
  checkViolation: '23514',
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

/** How a write's refusals by the database read in the domain: by kind of violation, or by constraint name. */
export interface ViolationRules {
  /** A unique constraint, by name (e.g. `rooms_hotel_id_number_unique`). */
  unique?: Record<string, () => Error>;
  /** Any foreign key (given its name): a referenced row missing (insert/update) or a referencing row left (delete). */
  foreignKey?: (constraint: string) => Error;
  /** Any exclusion constraint (overlapping ranges). */
  exclusion?: () => Error | Promise<Error>;
  /** A check constraint, by name. */
  check?: Record<string, () => Error>;
}

/**
 * Runs a write and turns the database's refusals into the domain's errors (409, 400...) by the rules given; any
 * other failure passes through unchanged.
 */
export async function refusalsAs<T>(rules: ViolationRules, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    const { code, constraint = '' } = databaseError(error);
    const translated =
      (code === PG_ERRORS.uniqueViolation && rules.unique?.[constraint]?.()) ||
      (code === PG_ERRORS.foreignKeyViolation && rules.foreignKey?.(constraint)) ||
      (code === PG_ERRORS.exclusionViolation && (await rules.exclusion?.())) ||
      (code === PG_ERRORS.checkViolation && rules.check?.[constraint]?.());
    throw translated || error;
  }
}
