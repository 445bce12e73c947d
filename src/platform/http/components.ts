/** The joi meta key that carries a schema's OpenAPI component name. */
export const COMPONENT_META_KEY = 'component';

/**
 * Joi meta that publishes a response schema as the OpenAPI component `name`
 * (`Joi.object({...}).meta(openApiComponent('Room'))`): the document describes it once, under
 * `#/components/schemas/<name>`, and references it wherever it appears, so generated clients get one type for it.
 * Every field of a component is documented as always sent unless marked `.optional()`. A component that allows
 * `null` is nullable wherever it is used (OpenAPI 3.0 cannot put `nullable` beside a `$ref`).
 */
export function openApiComponent(name: string): Record<string, string> {
  return { [COMPONENT_META_KEY]: name };
}
