/**
 * PostgreSQL's jsonb cannot hold every JSON value: a string with U+0000 (a C driver's string with its terminator) or a
 * lone surrogate is refused, and with it the whole row. Such a value is stored as its JSON text under the one key
 * `$json` (the text escapes those characters, so jsonb holds it); a value that already has that shape is wrapped the
 * same way, so reading back is exact for every value.
 */
const WRAPPER_KEY = '$json';
/** What JSON.stringify writes for U+0000 and for lone surrogates (a pair is written as itself). */
const UNSTORABLE_ESCAPE = /\\u(?:0000|d[89a-f])/i;

function isWrapperShaped(value: unknown): value is Record<typeof WRAPPER_KEY, unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.keys(value).length === 1 &&
    WRAPPER_KEY in value
  );
}

/** The value as jsonb can store it (itself, or its wrapper). */
export function toStorableJson(value: unknown): unknown {
  const text = JSON.stringify(value);
  if (text === undefined) return value;
  return UNSTORABLE_ESCAPE.test(text) || isWrapperShaped(value) ? { [WRAPPER_KEY]: text } : value;
}

/** The value toStorableJson was given, from what jsonb returns. */
export function fromStoredJson<T>(stored: unknown): T {
  if (isWrapperShaped(stored) && typeof stored[WRAPPER_KEY] === 'string') return JSON.parse(stored[WRAPPER_KEY]) as T;
  return stored as T;
}

/** The JSON text of a value for a jsonb parameter. */
export const storableJsonText = (value: unknown): string => JSON.stringify(toStorableJson(value));

/** Every field of a record made storable (or read back) one by one: its other fields stay readable in SQL. */
export const toStorableFields = <T extends object>(record: T): T =>
  Object.fromEntries(Object.entries(record).map(([key, value]) => [key, toStorableJson(value)])) as T;

export const fromStoredFields = <T extends object>(record: T): T =>
  Object.fromEntries(Object.entries(record).map(([key, value]) => [key, fromStoredJson(value)])) as T;
