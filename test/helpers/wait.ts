import { setTimeout as delay } from 'node:timers/promises';

export interface UntilOptions {
  /** What is awaited, for the error once the deadline has passed (a function may say what was seen meanwhile). */
  what: string | (() => string);
  timeoutMs?: number;
  /** Time between two probes. */
  intervalMs?: number;
}

type Found<T> = Exclude<T, undefined | null | false>;

/**
 * Probes until the probe returns something (anything but undefined, null or false) and returns it; throws, naming
 * what was awaited, when the deadline passes first. A probe that throws ends the wait with its error.
 */
export async function until<T>(
  probe: () => T | Promise<T>,
  { what, timeoutMs = 20_000, intervalMs = 50 }: UntilOptions,
): Promise<Found<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== null && value !== false) return value as Found<T>;
    if (Date.now() > deadline) {
      throw new Error(`waited ${timeoutMs} ms for ${typeof what === 'string' ? what : what()}`);
    }
    await delay(intervalMs);
  }
}

/**
 * Paces a load generator: a client's think time between requests, a transaction or a lock held for a while, the
 * length of a load phase. It waits for nothing to happen: to wait for something, wait on it with `until`.
 */
export function pace(ms: number): Promise<void> {
  return delay(ms);
}
