import { setTimeout as delay } from 'node:timers/promises';
import type { Logger } from 'pino';

/** Waits between tries of a start-up step: doubling from the first, up to the last. */
const FIRST_WAIT_MS = 1_000;
const LONGEST_WAIT_MS = 15_000;

/**
 * Runs a step of the worker's start-up against Temporal until it succeeds or `withinMs` has passed (then its last
 * failure is thrown). A server that has just restarted answers late or not at all for a while; a worker that died of
 * that at start-up would leave the workflows without one until someone restarted it.
 */
export async function startupStep<T>(
  logger: Logger,
  step: string,
  run: () => Promise<T>,
  withinMs = 300_000,
): Promise<T> {
  const giveUpAt = Date.now() + withinMs;
  for (let wait = FIRST_WAIT_MS; ; wait = Math.min(wait * 2, LONGEST_WAIT_MS)) {
    try {
      return await run();
    } catch (error) {
      if (Date.now() + wait > giveUpAt) throw error;
      logger.warn({ err: error, step, retryInMs: wait }, 'worker start-up step failed; trying again');
      await delay(wait);
    }
  }
}
