import type { InvoiceActivities } from '../../../workflows/contracts/invoices';
import { sendClaimed } from '../../platform/db/mail-claims';
import type { WorkerContext } from '../../platform/modules';
import { sendingClaimed, workflowRunKey } from '../../platform/temporal/mail-failures';
import type { InvoicesService } from './invoices.service';

/** The invoice e-mail workflow's activity: the PDF sent once per workflow run (a refused address once, for good). */
export function invoiceActivities(invoices: InvoicesService, { db, mailer }: WorkerContext): InvoiceActivities {
  return {
    sendInvoiceEmail: (hotelId, emailId) =>
      sendingClaimed(
        async () => {
          const asked = await invoices.emailMessage(hotelId, emailId);
          if (!asked) return 'nothing_to_send';
          const outcome = await sendClaimed(
            db,
            `invoice-email:${workflowRunKey()}`,
            () => mailer.send(asked.message),
            'send',
          );
          if (outcome !== 'busy') await invoices.markEmailSent(hotelId, emailId);
          return outcome;
        },
        { type: 'InvoiceEmailBusy', message: 'the invoice e-mail is being sent' },
      ),
  };
}
