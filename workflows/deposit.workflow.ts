import { condition, proxyActivities, setHandler } from '@temporalio/workflow';
import {
  depositCommandSignal,
  type DepositActivities,
  type DepositCommand,
  type DepositWorkflowInput,
} from './contracts/deposits';
import { providerPaymentChangedSignal } from './contracts/payments';
import { upcomingAt, upcomingQuery } from './contracts/upcoming';
import { MONEY_ACTIVITY_OPTIONS } from './money-activities';

const activities = proxyActivities<DepositActivities>(MONEY_ACTIVITY_OPTIONS);

/**
 * One per deposit, from creation until no money is left to act on. It owns every call to the provider (each an
 * idempotent activity keyed by the deposit's own ids) and every timer: the payer's hour to pay, the provider re-read
 * between notifications, and the settlement of a confirmed hold before the provider lets it lapse on its 7th day.
 * Staff operations arrive as signals after the request recorded them; notifications arrive as wake-ups, and the
 * provider is re-read rather than believed.
 */
export async function deposit({ hotelId, depositId, kind, timings }: DepositWorkflowInput): Promise<string> {
  const commands: DepositCommand[] = [];
  let providerChanged = false;
  setHandler(depositCommandSignal, (command) => {
    commands.push(command);
  });
  setHandler(providerPaymentChangedSignal, () => {
    providerChanged = true;
  });

  let awaitingPayment = kind !== 'cash';
  if (awaitingPayment && !(await activities.createDepositPayment(hotelId, depositId))) return 'provider_refused';
  const paymentDeadline = Date.now() + timings.confirmationTimeoutMs;
  let settleAt: number | undefined;
  setHandler(upcomingQuery, () => [
    ...upcomingAt('deposit_payment_expires', awaitingPayment ? paymentDeadline : undefined),
    ...upcomingAt('hold_settles', settleAt),
  ]);

  for (;;) {
    const waits = [awaitingPayment ? paymentDeadline : undefined, settleAt].filter((at) => at !== undefined);
    const untilNext = waits.length > 0 ? Math.max(0, Math.min(...waits) - Date.now()) : undefined;
    const timeout = awaitingPayment ? Math.min(untilNext!, timings.pollIntervalMs) : untilNext;
    const ready = () => commands.length > 0 || providerChanged;
    if (timeout === undefined) await condition(ready);
    else await condition(ready, timeout);

    if (commands.length > 0) {
      const command = commands.shift()!;
      const standing = await activities.performDepositOperation(hotelId, depositId, command);
      if (command.operation === 'release') await activities.sendDepositStatement(hotelId, depositId);
      if (standing === 'closed') return command.operation;
    } else if (awaitingPayment) {
      providerChanged = false;
      const outcome =
        Date.now() >= paymentDeadline
          ? await activities.expireDepositPayment(hotelId, depositId)
          : await activities.syncDepositPayment(hotelId, depositId);
      if (outcome === 'failed') return 'not_paid';
      if (outcome === 'paid') {
        awaitingPayment = false;
        if (kind === 'hold') settleAt = Date.now() + timings.holdSettleAfterMs;
      }
    } else if (providerChanged) {
      providerChanged = false;
      if ((await activities.syncDepositPayment(hotelId, depositId)) === 'failed') return 'lapsed';
    } else if (settleAt !== undefined && Date.now() >= settleAt) {
      settleAt = undefined;
      if ((await activities.settleLapsingHold(hotelId, depositId)) === 'closed') return 'settled';
    }
  }
}
