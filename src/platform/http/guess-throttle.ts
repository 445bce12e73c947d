import type { AddressQuota, SharedRateLimiter } from './rate-limit';

/** A budget of wrong guesses of a secret (a surname, a stay code), per key, per window. */
export interface GuessBudget extends AddressQuota {
  scope: string;
}

export type CountedGuess = [budget: GuessBudget, key: string];

/**
 * The key of a room's budget of guesses at its guests' secrets: the hotel's real room's own, and one shared by every
 * room name the hotel does not have (a guess there can never be right, and inventing names buys no fresh budget).
 */
export const roomGuessKey = (hotelId: string, roomId: string | null) => `${hotelId}:${roomId ?? 'unknown-rooms'}`;

/**
 * Budgets spent by wrong guesses only. Each attempt is counted against every budget before it is judged (so a burst
 * of parallel guesses cannot all get in under a quota none of them has spent yet), and given back once it proves
 * right, so a guest asking again and again with the right secret is never stopped.
 */
export function createGuessThrottle(limiter: SharedRateLimiter, refusal: (retryAfterSeconds: number) => Error) {
  return {
    /**
     * Throws `refusal` (a 429 with `Retry-After`) when any budget is used up, then even a right guess is refused;
     * otherwise the attempt is counted, and the function returned gives it back.
     */
    async attempt(counted: CountedGuess[]): Promise<() => Promise<void>> {
      const taken: CountedGuess[] = [];
      const giveBack = async () => {
        for (const [budget, key] of taken) await limiter.giveBack(budget.scope, key);
      };
      for (const [budget, key] of counted) {
        const decision = await limiter.consume(budget.scope, key, undefined, budget);
        taken.push([budget, key]);
        if (decision.retryAfterSeconds !== undefined) {
          // A refused attempt is not judged, so it is not a guess: the count stays at the quota, still refusing.
          await giveBack();
          throw refusal(decision.retryAfterSeconds);
        }
      }
      return giveBack;
    },
  };
}
