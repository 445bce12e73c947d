import type { SignalMessage, StartWorkflowMessage } from '../../platform/db/outbox';
import { providerPaymentChangedSignal } from '../../../workflows/contracts/payments';

/** The outbox messages of the workflows that follow a payment at the provider (a deposit's, an online payment's). */

export type WorkflowStart = Omit<StartWorkflowMessage, 'kind'>;

/** A money workflow is found in Temporal by its hotel and booking; its memo names the record it follows. */
export function moneyWorkflowStart(
  workflowType: string,
  workflowId: string,
  args: unknown[],
  hotelSlug: string,
  record: { id: string; booking_id: string },
): WorkflowStart {
  return {
    workflowType,
    workflowId,
    args,
    searchAttributes: { HotelSlug: hotelSlug, BookingId: record.booking_id },
    memo: { hotel: hotelSlug, booking: record.booking_id, [workflowType]: record.id },
  };
}

/** Signals the workflow, starting it again if it has finished (a late payment still gets handled, never lost). */
export function signalWithStart(start: WorkflowStart, signal: string, signalArgs: unknown[]): SignalMessage {
  return { kind: 'signalWithStart', ...start, signal, signalArgs, reviveFinished: true };
}

/** The wake-up a provider's notification asks for: the workflow re-reads the payment. */
export const providerChangedSignal = (start: WorkflowStart) =>
  signalWithStart(start, providerPaymentChangedSignal.name, []);
