/** How a guest proves at the captive portal that they stay in the room they name. */
export const WIFI_AUTH_METHODS = ['room+lastname', 'room+birthdate', 'room+any', 'room_only'] as const;
export type WifiAuthMethod = (typeof WIFI_AUTH_METHODS)[number];

// One spelling per letter (ICAO 9303, Russian passports since 2013); the folding below makes the others meet it.
// prettier-ignore
const CYRILLIC_TO_LATIN: Record<string, string> = {
  а: 'a', б: 'b', в: 'v', г: 'g', д: 'd', е: 'e', ё: 'e', ж: 'zh', з: 'z', и: 'i', й: 'i', к: 'k', л: 'l',
  м: 'm', н: 'n', о: 'o', п: 'p', р: 'r', с: 's', т: 't', у: 'u', ф: 'f', х: 'kh', ц: 'ts', ч: 'ch', ш: 'sh',
  щ: 'shch', ъ: '', ы: 'y', ь: '', э: 'e', ю: 'iu', я: 'ia', і: 'i', ї: 'i', є: 'e', ў: 'u',
};

/**
 * The ways one Cyrillic consonant is written in Latin (ICAO, GOST 7.79, the 1997 passports' `tc`, English and German
 * habits), longest first so that `shch` is not read as `sh` + `ch`. Placeholders keep a folded letter from being read
 * again by the rules after it.
 */
const CONSONANTS = /shch|sch|tch|zh|kh|ch|sh|ts|tz|tc|h|x|c|w|j/g;
// prettier-ignore
const CONSONANT_TOKENS: Record<string, string> = {
  shch: 'Щ', sch: 'Щ', tch: 'Ч', zh: 'Ж', kh: 'Х', ch: 'Ч', sh: 'Ш', ts: 'Ц', tz: 'Ц', tc: 'Ц', h: 'Х',
  x: 'ks', c: 'Ц', w: 'v', j: 'i',
};
const TOKEN_SPELLING: Record<string, string> = { Щ: 'shch', Ч: 'ch', Ж: 'zh', Х: 'kh', Ш: 'sh', Ц: 'ts' };

/**
 * One comparable Latin form of a name written in Cyrillic or in any usual Latin transliteration of it: "Иванов",
 * "IVANOV" and "ivanov " give one form, and so do "Хрущёв", "Khrushchev", "Hrushchyov"; "Юрьев", "Iurev", "Yuryev".
 * Lossy on purpose: two spellings of one name must meet; two names meeting is the rarer, harmless error.
 */
export function foldName(name: string): string {
  const latin = [...name.toLowerCase()].map((char) => CYRILLIC_TO_LATIN[char] ?? char).join('');
  const letters = latin
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z]/g, '');
  return (
    letters
      .replace(CONSONANTS, (written) => CONSONANT_TOKENS[written])
      // й, ы and the i/y of я, ю, ё are one sound class here: "Yakov" = "Iakov", "Ilyin" = "Ilin".
      .replace(/y/g, 'i')
      .replace(/i{2,}/g, 'i')
      // е written ye/ie (Sergeyev, ICAO's ъе as ie) and ё written yo/io (Fyodorov) are е.
      .replace(/i[eo]/g, 'e')
      .replace(/[ЩЧЖХШЦ]/g, (token) => TOKEN_SPELLING[token])
  );
}

/** The surname typed at the portal is the one on file, in either alphabet; an empty one matches nothing. */
export function sameSurname(typed: string, onFile: string): boolean {
  const folded = foldName(typed);
  return folded !== '' && folded === foldName(onFile);
}

/** A device stays online for the configured hours, never past the end of the stay. */
export function sessionUntil(now: Date, sessionHours: number, stayEnd: Date): Date {
  return new Date(Math.min(now.getTime() + sessionHours * 3_600_000, stayEnd.getTime()));
}

/** `AA:BB:CC:DD:EE:FF` from any usual way of writing a MAC (`aa-bb-…`, `aabb.ccdd.eeff`), so one device is one row. */
export function normalizeMac(mac: string): string {
  return mac
    .replace(/[:.-]/g, '')
    .toUpperCase()
    .replace(/(..)(?!$)/g, '$1:');
}
