/**
 * The initials of a person's names ("Анна Петрова" -> "А. П."): enough for an operator to tell workflows apart in
 * the Temporal UI without a name reaching Temporal.
 */
export function initials(...names: (string | null | undefined)[]): string {
  return names
    .flatMap((name) => (name ?? '').split(/\s+/))
    .filter((word) => word.length > 0)
    .map((word) => `${[...word][0].toLocaleUpperCase()}.`)
    .join(' ');
}
