import { proxyActivities } from '@temporalio/workflow';
import type { InvoiceActivities, InvoiceEmailInput } from './contracts/invoices';

const { sendInvoiceEmail } = proxyActivities<InvoiceActivities>({
  // Rendering a missing PDF and talking to the relay: short enough that an attempt lost with a worker is soon retried.
  startToCloseTimeout: '30 seconds',
  // A relay down for a while must not lose the e-mail the desk asked for.
  scheduleToCloseTimeout: '1 day',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '10 minutes' },
});

/** E-mails an invoice's PDF to the address staff gave; the request that asked for it has already succeeded. */
export async function invoiceEmail(input: InvoiceEmailInput): Promise<void> {
  await sendInvoiceEmail(input.hotelId, input.emailId);
}
