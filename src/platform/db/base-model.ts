import { Model } from 'objection';

/** Tables with `updated_at` keep it current on every patch made through a model. */
export class BaseModel extends Model {
  updated_at?: Date;

  override $beforeUpdate(): void {
    this.updated_at = new Date();
  }
}

/** PostgreSQL's unique_violation, with the constraint that was hit. */
export function uniqueViolation(error: unknown): string | undefined {
  const pgError = (error as { nativeError?: { code?: string; constraint?: string } }).nativeError ?? error;
  const { code, constraint } = pgError as { code?: string; constraint?: string };
  return code === '23505' ? (constraint ?? 'unknown') : undefined;
}
