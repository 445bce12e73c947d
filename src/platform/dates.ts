/** A calendar date `YYYY-MM-DD` moved by `days` (negative: earlier). */
export const addDays = (date: string, days: number): string =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** A calendar date `YYYY-MM-DD` as Russian documents write it, `DD.MM.YYYY` (receipt lines, folio lines). */
export const russianDate = (date: string): string => date.split('-').reverse().join('.');
