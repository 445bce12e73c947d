/**
 * The invoice e-mail's contract: the invoices module starts the workflow when staff ask for an invoice to be e-mailed,
 * and implements its activity.
 */

export interface InvoiceEmailInput {
  hotelId: string;
  emailId: string;
}

/** Workflow ids are built from business ids only: no personal data reaches Temporal's visibility store. */
export const invoiceWorkflowIds = {
  invoiceEmail: (emailId: string) => `invoice-email:${emailId}`,
};

export interface InvoiceActivities {
  /** Sends the invoice's PDF to the address asked for, at most once (a refused address fails for good). */
  sendInvoiceEmail(hotelId: string, emailId: string): Promise<string>;
}

export type InvoiceEmailWorkflow = (input: InvoiceEmailInput) => Promise<void>;
