import { proxyActivities } from '@temporalio/workflow';
import type { LoyaltyExpiryActivities } from './contracts/loyalty-expiry';

const { expireLoyaltyPoints } = proxyActivities<LoyaltyExpiryActivities>({
  startToCloseTimeout: '10 minutes',
  retry: { maximumAttempts: 3 },
});

/** A backlog larger than this waits for the next day's run rather than keeping one run going. */
const MAX_PASSES = 20;

/** Run by a schedule: writes the expiry rows of loyalty points not spent before their date. Answers the guests settled. */
export async function loyaltyExpiry(): Promise<number> {
  let guests = 0;
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const report = await expireLoyaltyPoints();
    guests += report.guests;
    if (!report.more) break;
  }
  return guests;
}
