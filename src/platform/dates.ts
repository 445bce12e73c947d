/** A calendar date `YYYY-MM-DD` as Russian documents write it, `DD.MM.YYYY` (receipt lines, folio lines). */
export const russianDate = (date: string): string => date.split('-').reverse().join('.');
