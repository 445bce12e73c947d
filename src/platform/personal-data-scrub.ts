/** What an erased value becomes: an anonymous marker, so what the books keep still reads as someone's stay. */
export const ERASED = '[erased]';

const regexEscape = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Every needle replaced by the marker where it stands as a whole value (not inside a longer word or number), whatever
 * its case: `+79161234567` is found in "звонить +79161234567", never in "+791612345678".
 */
export function scrubText(text: string, needles: string[]): string {
  const forms = [...new Set(needles)].filter((form) => form.length > 0).sort((a, b) => b.length - a.length);
  if (forms.length === 0) return text;
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])(?:${forms.map(regexEscape).join('|')})(?![\\p{L}\\p{N}])`, 'giu');
  return text.replace(pattern, ERASED);
}

/** A JSON value with its string leaves scrubbed; numbers, booleans and keys are left as they are. */
export function scrubJson(value: unknown, needles: string[]): unknown {
  if (typeof value === 'string') return scrubText(value, needles);
  if (Array.isArray(value)) return value.map((item) => scrubJson(item, needles));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, scrubJson(item, needles)]));
  return value;
}
