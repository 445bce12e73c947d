import type Joi from 'joi';
import { ValidationError, type ValidationDetail } from '../errors';

const options: Joi.ValidationOptions = { abortEarly: false, stripUnknown: true, convert: true };

/** PostgreSQL text cannot hold U+0000, so a string carrying it is refused here rather than failing in the database. */
function nulCharacters(value: unknown, path: string[], found: ValidationDetail[]): ValidationDetail[] {
  if (typeof value === 'string') {
    if (value.includes('\u0000'))
      found.push({ path: path.join('.'), message: `"${path.slice(1).join('.')}" must not contain NUL characters` });
  } else if (Array.isArray(value)) {
    value.forEach((item, index) => nulCharacters(item, [...path, String(index)], found));
  } else if (value && typeof value === 'object' && !(value instanceof Date)) {
    for (const [key, item] of Object.entries(value)) nulCharacters(item, [...path, key], found);
  }
  return found;
}

/** Returns the validated (converted, unknown keys stripped) value, or refuses with every problem listed. */
export function validate<T>(schema: Joi.Schema, value: unknown, location: 'body' | 'query' | 'params'): T {
  const result = schema.validate(value ?? {}, options);
  const details = result.error
    ? result.error.details.map((detail) => ({
        path: [location, ...detail.path].join('.'),
        message: detail.message,
      }))
    : nulCharacters(result.value, [location], []);
  if (details.length > 0) {
    throw new ValidationError(`Некорректные данные: ${details.map((d) => d.message).join('; ')}`, details);
  }
  return result.value as T;
}
