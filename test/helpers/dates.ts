/** A day of a new hotel's calendar (`Europe/Moscow`, the zone registration gives it), `offsetDays` from today. */
export function localDay(offsetDays: number): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Moscow' }).format(
    new Date(Date.now() + offsetDays * 86_400_000),
  );
}
