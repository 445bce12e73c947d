import { defineModule } from '../../platform/modules';
import { invoiceActivities } from './invoices.activities';
import { invoiceUpdated } from './invoices.events';
import { invoicesFixtures } from './invoices.fixtures';
import { invoicesRoutes } from './invoices.routes';
import { createInvoicesService, type InvoicesDependencies } from './invoices.service';
import { scrubbed } from '../../platform/personal-data';
import { invoicePdfs } from './invoices.personal-data';

/** Invoices from folios to their payers: numbered, PDF in the object store, e-mailed, cancelled by credit notes, paid. */
export const invoicesModule = defineModule({
  name: 'invoices',
  fixtures: invoicesFixtures,
  uses: ['hotels', 'bookings', 'folios'],
  personalData: [
    scrubbed('invoices', 'booking', [{ name: 'payer', json: true }]),
    scrubbed('invoice_lines', 'invoice', [{ name: 'description' }]),
    scrubbed('invoice_emails', 'invoice', [{ name: 'to' }]),
    invoicePdfs,
  ],
  create: ({ db, storage }, deps: InvoicesDependencies) => createInvoicesService(db, storage, deps),
  events: [invoiceUpdated],
  routes: (invoices) => invoicesRoutes(invoices),
  activities: (invoices, context) => invoiceActivities(invoices, context),
});
