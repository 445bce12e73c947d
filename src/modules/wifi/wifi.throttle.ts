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

/** Budgets spent by failures only (a right answer costs nothing), yet checked before every attempt. */
export function createWifiThrottle(limiter: SharedRateLimiter) {
  return {
    /** 429 (`Retry-After`) when any of them is used up: then even a right guess is refused. */
    async assertOpen(counted: Counted[]): Promise<void> {
      for (const [budget, key] of counted) {
        const wait = await limiter.spent(budget.scope, key, budget);
        if (wait !== undefined) throw new WifiThrottled(wait);
      }
    },

    async fail(counted: Counted[]): Promise<void> {
      for (const [budget, key] of counted) await limiter.consume(budget.scope, key, undefined, budget);
    },
  };
}
