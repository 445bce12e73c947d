export type { InvoicesService } from './invoices.service';
