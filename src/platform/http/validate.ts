import type Joi from 'joi';
import { ValidationError, type ValidationDetail } from '../errors';

const options: Joi.ValidationOptions = { abortEarly: false, stripUnknown: true, convert: true };

/**
 * Text PostgreSQL cannot store: U+0000 in text, and unpaired UTF-16 surrogates, which JSON carries as `\ud800` but
 * jsonb (realtime event payloads) refuses. A string carrying either is refused here rather than failing in the database.
 */
const UNPAIRED_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function unstorableText(value: string): string | undefined {
  if (value.includes('\u0000')) return 'must not contain NUL characters';
  if (UNPAIRED_SURROGATE.test(value)) return 'must not contain unpaired surrogates';
  return undefined;
}

function unstorableStrings(value: unknown, path: string[], found: ValidationDetail[]): ValidationDetail[] {
  if (typeof value === 'string') {
    const problem = unstorableText(value);
    if (problem) found.push({ path: path.join('.'), message: `"${path.slice(1).join('.')}" ${problem}` });
  } else if (Array.isArray(value)) {
    value.forEach((item, index) => unstorableStrings(item, [...path, String(index)], found));
  } else if (value && typeof value === 'object' && !(value instanceof Date)) {
    for (const [key, item] of Object.entries(value)) unstorableStrings(item, [...path, key], found);
  }
  return found;
}

/** Returns the validated (converted, unknown keys stripped) value, or refuses with every problem listed. */
export function validate<T>(schema: Joi.Schema, value: unknown, location: 'body' | 'query' | 'params' | 'headers'): T {
  const result = schema.validate(value ?? {}, options);
  const details = result.error
    ? result.error.details.map((detail) => ({
        path: [location, ...detail.path].join('.'),
        message: detail.message,
      }))
    : unstorableStrings(result.value, [location], []);
  if (details.length > 0) {
    throw new ValidationError(`Некорректные данные: ${details.map((d) => d.message).join('; ')}`, details);
  }
  return result.value as T;
}
