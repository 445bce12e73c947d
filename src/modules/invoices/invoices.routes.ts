import { defineHotelRoute, type RouteDefinition } from '../../platform/http/route';
import type { Role } from '../../platform/http/roles';
import { idempotencyKeyHeader } from '../../platform/http/idempotency-key';
import { idParams, slugParams } from '../../platform/http/schemas';
import { MONEY_DESK, MONEY_READERS } from '../payments';
import {
  cancelBody,
  creditNoteSchema,
  emailBody,
  emailSchema,
  invoiceListSchema,
  invoiceSchema,
  issueBody,
  listQuery,
  paidSchema,
  paymentBody,
} from './invoices.schemas';
import type { InvoicesService } from './invoices.service';
import type { IssueInput, PaymentInput } from './invoices.types';

const tags = ['Invoices'];
const path = '/api/hotels/:slug/invoices';
/** A credit note is an accounting act: the owner, managers and the accountant, not the desk. */
const CANCELLERS: readonly Role[] = ['hotel_admin', 'manager', 'accountant'];

/** Invoices: read by those who see money, issued, paid and e-mailed by the money desk, cancelled by accounting. */
export function invoicesRoutes(invoices: InvoicesService): RouteDefinition[] {
  return [
    defineHotelRoute<IssueInput>({
      method: 'post',
      path,
      summary: 'Issue an invoice from a folio to its payer',
      description:
        'Bills the folio’s charges (every kind but payments and refunds and corrections of them) that are on no ' +
        'invoice not cancelled, but corrections of lines on one (settled by its credit note and reissue), at most ' +
        '500; or the lines named in `line_ids`. Numbered `<year>-<sequence>` without gaps per hotel and calendar year (the ' +
        'hotel’s local date); carries the hotel’s requisites (its settings) and the payer’s as they are now. 422 ' +
        '`invoice_requisites_missing` names the requisites to fill first.',
      tags,
      access: { kind: 'hotel', roles: MONEY_DESK },
      request: { params: slugParams, body: issueBody },
      responses: {
        201: { description: 'Issued', schema: invoiceSchema },
        400: { description: 'No such folio, or a line not of it' },
        409: { description: 'A line named is on another invoice not cancelled' },
        422: { description: 'Requisites missing, nothing to invoice, a payment line named, a total not above zero' },
      },
      async handler({ hotel, body, auth, res }) {
        res.status(201).json(await invoices.issue(hotel.id, body, auth.sub));
      },
    }),
    defineHotelRoute<unknown, { booking_id?: string; year?: number; limit: number }>({
      method: 'get',
      path,
      summary: 'The hotel’s invoices, newest number first',
      tags,
      access: { kind: 'hotel', roles: MONEY_READERS },
      request: { params: slugParams, query: listQuery },
      responses: { 200: { description: 'Invoices', schema: invoiceListSchema } },
      async handler({ hotel, query, res }) {
        res.json(await invoices.list(hotel.id, query));
      },
    }),
    defineHotelRoute<unknown, unknown, { id: string }>({
      method: 'get',
      path: `${path}/:id`,
      summary: 'An invoice: lines, VAT, payments, its credit note, the e-mails asked',
      tags,
      access: { kind: 'hotel', roles: MONEY_READERS },
      request: { params: idParams },
      responses: {
        200: { description: 'The invoice', schema: invoiceSchema },
        404: { description: 'No such invoice' },
      },
      async handler({ hotel, params, res }) {
        res.json(await invoices.get(hotel.id, params.id));
      },
    }),
    defineHotelRoute<unknown, unknown, { id: string }>({
      method: 'get',
      path: `${path}/:id/pdf`,
      summary: 'The invoice as PDF (kept in the object store)',
      tags,
      access: { kind: 'hotel', roles: MONEY_READERS },
      request: { params: idParams },
      responses: {
        200: { description: 'The PDF', media: ['application/pdf'] },
        404: { description: 'No such invoice' },
      },
      async handler({ hotel, params, res }) {
        const { number, pdf } = await invoices.pdf(hotel.id, params.id);
        res.set('Content-Disposition', `attachment; filename="invoice-${number}.pdf"`);
        res.type('application/pdf').send(pdf);
      },
    }),
    defineHotelRoute<{ to: string }, unknown, { id: string }>({
      method: 'post',
      path: `${path}/:id/email`,
      summary: 'E-mail the invoice’s PDF to an address',
      description:
        'Answered at once; a workflow sends it (retried while the mail relay is down), at most once per request: a ' +
        'retry with the same `Idempotency-Key` is answered the first answer. Recorded on the invoice; 20 per invoice.',
      tags,
      access: { kind: 'hotel', roles: MONEY_DESK },
      idempotency: 'mount',
      request: { params: idParams, body: emailBody, headers: idempotencyKeyHeader },
      responses: {
        202: { description: 'Asked', schema: emailSchema },
        404: { description: 'No such invoice' },
        409: { description: 'The invoice is cancelled' },
        422: { description: 'Already e-mailed the most times an invoice is (20)' },
      },
      async handler({ hotel, params, body, auth, res }) {
        res.status(202).json(await invoices.email(hotel.id, params.id, body.to, auth.sub));
      },
    }),
    defineHotelRoute<{ reason: string }, unknown, { id: string }>({
      method: 'post',
      path: `${path}/:id/cancel`,
      summary: 'Cancel the invoice by a credit note',
      description:
        'The only way an invoice is cancelled: a credit note numbered `CN-<year>-<sequence>` in its own gapless ' +
        'series, pointing to it. Its lines may then be invoiced again. An invoice with payments is not cancelled (409).',
      tags,
      access: { kind: 'hotel', roles: CANCELLERS },
      request: { params: idParams, body: cancelBody },
      responses: {
        201: { description: 'The credit note', schema: creditNoteSchema },
        404: { description: 'No such invoice' },
        409: { description: 'Cancelled already, or paid in part' },
      },
      async handler({ hotel, params, body, auth, res }) {
        res.status(201).json(await invoices.cancel(hotel.id, params.id, body.reason, auth.sub));
      },
    }),
    defineHotelRoute<PaymentInput, unknown, { id: string }>({
      method: 'post',
      path: `${path}/:id/payments`,
      summary: 'Record a payment of the invoice (posted to its folio)',
      description:
        'A bank transfer, recorded in the booking’s payment ledger (method `transfer`, its `paid_amount`) and so ' +
        'posted to the invoice’s folio as a `payment` line (source `payment:<ledger id>`). Partial payments add up; ' +
        'more than is left to pay is 422 `invoice_overpaid`; cash or a card is 422 `invoice_payment_at_desk` (the ' +
        'desk’s payment of the booking prints its receipt).',
      tags,
      access: { kind: 'hotel', roles: MONEY_DESK },
      request: { params: idParams, body: paymentBody },
      responses: {
        201: { description: 'The payment and the invoice', schema: paidSchema },
        404: { description: 'No such invoice' },
        409: { description: 'The invoice is cancelled' },
        422: { description: 'More than is left to pay, or cash or a card (taken at the desk)' },
      },
      async handler({ hotel, params, body, auth, res }) {
        res.status(201).json(await invoices.pay(hotel.id, params.id, body, auth.sub));
      },
    }),
  ];
}
