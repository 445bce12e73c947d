import type { InvoiceActivities } from '../../../workflows/contracts/invoices';
import { sendClaimed } from '../../platform/db/mail-claims';
import type { WorkerContext } from '../../platform/modules';
import { sendingClaimed } from '../../platform/temporal/mail-failures';
import type { InvoicesService } from './invoices.service';

/** The invoice e-mail workflow's activity: the PDF sent once per workflow run (a refused address once, for good). */
export function invoiceActivities(invoices: InvoicesService, { db, mailer }: WorkerContext): InvoiceActivities {
  return {
    sendInvoiceEmail: (hotelId, emailId) =>
      sendingClaimed(
        async () => {
          const asked = await invoices.emailMessage(hotelId, emailId);
          if (!asked) return 'nothing_to_send';
          // Claimed per e-mail asked, and skipped when in doubt: the same invoice is never mailed twice for one ask.
          const outcome = await sendClaimed(db, `invoice-email:${emailId}`, () => mailer.send(asked.message), 'skip');
          if (outcome === 'sent' || outcome === 'already_sent') await invoices.markEmailSent(hotelId, emailId);
          return outcome;
        },
        { type: 'InvoiceEmailBusy', message: 'the invoice e-mail is being sent' },
      ),
  };
}
