import type { GuessBudget } from '../../platform/http/guess-throttle';

/**
 * Wrong guesses allowed per window. A room's surname is the secret worth guarding: 5 per room whoever asks (every room
 * name the hotel does not have shares one such budget, so inventing names buys no fresh guesses); a device
 * (its MAC, else the caller's address) may err more, across rooms, before it is stopped too. A wrong portal secret is
 * counted per hotel and caller address.
 */
export const WIFI_BUDGETS = {
  room: { scope: 'wifi.room', quota: 5, windowSeconds: 900 },
  device: { scope: 'wifi.device', quota: 30, windowSeconds: 900 },
  portal: { scope: 'wifi.portal', quota: 30, windowSeconds: 900 },
} satisfies Record<string, GuessBudget>;
