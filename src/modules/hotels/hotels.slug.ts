// prettier-ignore
const cyrillicToLatin: Record<string, string> = {
  а: 'a', б: 'b', в: 'v', г: 'g', д: 'd', е: 'e', ё: 'yo', ж: 'zh', з: 'z', и: 'i', й: 'y', к: 'k', л: 'l',
  м: 'm', н: 'n', о: 'o', п: 'p', р: 'r', с: 's', т: 't', у: 'u', ф: 'f', х: 'h', ц: 'ts', ч: 'ch', ш: 'sh',
  щ: 'sch', ъ: '', ы: 'y', ь: '', э: 'e', ю: 'yu', я: 'ya',
};

export const SLUG_MAX_LENGTH = 50;

/** The slug rule of the spec, step by step in its order. */
export function slugify(hotelName: string): string {
  const slug = hotelName
    .toLowerCase()
    .replace(/[а-яё]/g, (letter) => cyrillicToLatin[letter])
    .replace(/[^a-z0-9\s-]/g, '')
    .trim()
    .replace(/\s+/g, '-')
    .replace(/-+/g, '-')
    .slice(0, SLUG_MAX_LENGTH);
  return slug || 'hotel';
}

/** `base` when free, otherwise the first of `base-2`, `base-3`, ... that is not taken. */
export function firstFreeSlug(base: string, taken: Iterable<string>): string {
  const takenSet = new Set(taken);
  if (!takenSet.has(base)) return base;
  for (let suffix = 2; ; suffix++) {
    const candidate = `${base}-${suffix}`;
    if (!takenSet.has(candidate)) return candidate;
  }
}
