import type Joi from 'joi';
import { ValidationError } from '../errors';

const options: Joi.ValidationOptions = { abortEarly: false, stripUnknown: true, convert: true };

/** Returns the validated (converted, unknown keys stripped) value, or refuses with every problem listed. */
export function validate<T>(schema: Joi.Schema, value: unknown, location: 'body' | 'query' | 'params'): T {
  const result = schema.validate(value ?? {}, options);
  if (result.error) {
    const details = result.error.details.map((detail) => ({
      path: [location, ...detail.path].join('.'),
      message: detail.message,
    }));
    throw new ValidationError(`Некорректные данные: ${details.map((d) => d.message).join('; ')}`, details);
  }
  return result.value as T;
}
