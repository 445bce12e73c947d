import type { AddressQuota, SharedRateLimiter } from '../../platform/http/rate-limit';
import { WifiThrottled } from './wifi.messages';

export interface WifiBudget extends AddressQuota {
  scope: string;
}

/**
 * Wrong guesses allowed per window. A room's surname is the secret worth guarding: 5 per room whoever asks; a device
 * (its MAC, else the caller's address) may err more, across rooms, before it is stopped too. A wrong portal secret is
 * counted per hotel and caller address.
 */
export const WIFI_BUDGETS = {
  room: { scope: 'wifi.room', quota: 5, windowSeconds: 900 },
  device: { scope: 'wifi.device', quota: 30, windowSeconds: 900 },
  portal: { scope: 'wifi.portal', quota: 30, windowSeconds: 900 },
} satisfies Record<string, WifiBudget>;

export type Counted = [budget: WifiBudget, key: string];

/**
 * Budgets spent by failures only. Each attempt is counted against every budget before it is judged (so a burst of
 * parallel guesses cannot all get in under a quota none of them has spent yet), and given back once it proves right.
 */
export function createWifiThrottle(limiter: SharedRateLimiter) {
  return {
    /**
     * 429 (`Retry-After`) when any budget is used up, then even a right guess is refused; otherwise the attempt is
     * counted, and the function returned gives it back.
     */
    async attempt(counted: Counted[]): Promise<() => Promise<void>> {
      const taken: Counted[] = [];
      const giveBack = async () => {
        for (const [budget, key] of taken) await limiter.giveBack(budget.scope, key);
      };
      for (const [budget, key] of counted) {
        const decision = await limiter.consume(budget.scope, key, undefined, budget);
        taken.push([budget, key]);
        if (decision.retryAfterSeconds !== undefined) {
          // A refused attempt is not judged, so it is not a guess: the count stays at the quota, still refusing.
          await giveBack();
          throw new WifiThrottled(decision.retryAfterSeconds);
        }
      }
      return giveBack;
    },
  };
}
