import { randomBytes } from 'node:crypto';
import type { Db, DbOrTrx } from '../../platform/db/knex';
import { enqueueOutbox, startWorkflowMessage } from '../../platform/db/outbox';
import { transactionWithRetry } from '../../platform/db/retry';
import { formatMoney, parseMoney, sumMoney } from '../../platform/money';
import { ServiceUnavailableError } from '../../platform/errors';
import { escapeHtml } from '../../platform/mail';
import type { Storage } from '../../platform/storage';
import { invoiceWorkflowIds, type InvoiceEmailWorkflow } from '../../../workflows/contracts/invoices';
import { hotelToday, type BookingsService } from '../bookings';
import type { FoliosService, FolioLine } from '../folios';
import { missingRequisites, REQUISITE_FIELDS, REQUISITE_NAMES, type HotelsService } from '../hotels';
import { invoiceErrors, invoiceMessages } from './invoices.messages';
import { renderInvoicePdf } from './invoices.pdf';
import {
  countersRepository,
  creditNotesRepository,
  emailsRepository,
  invoicesRepository,
  paymentsRepository,
} from './invoices.repository';
import {
  correctsInvoiced,
  documentNumber,
  invoiceLines,
  isInvoiceable,
  paymentStatusOf,
  vatByRate,
} from './invoices.rules';
import { createSettlement } from './invoices.settlement';
import {
  MAX_EMAILS,
  MAX_INVOICE_LINES,
  type InvoiceRow,
  type IssueInput,
  type Payer,
  type Seller,
} from './invoices.types';

type LockedFolio = NonNullable<Awaited<ReturnType<FoliosService['lockedFolio']>>>;

export interface InvoicesDependencies {
  hotels: Pick<HotelsService, 'find' | 'settingsOf'>;
  bookings: Pick<BookingsService, 'getWithin' | 'payments' | 'followLedger'>;
  folios: Pick<FoliosService, 'lockedFolio' | 'placeLine' | 'guardMoves'>;
}

/** The object store down (or refusing): 503, to be retried, not a 500; the store's error logged as its cause. */
async function inStore<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw Object.assign(new ServiceUnavailableError('storage_unavailable', invoiceMessages.storageDown, 5), {
      cause: error,
    });
  }
}

/**
 * Where a PDF is kept: under a random name no answer shows (never the invoice's id), since the production-like
 * bucket is readable by anyone who knows an object's key (docs/operations.md).
 */
const pdfKey = (invoice: Pick<InvoiceRow, 'hotel_id'>) =>
  `invoices/${invoice.hotel_id}/${randomBytes(32).toString('hex')}.pdf`;

/** Rows of several invoices grouped by invoice. */
function byInvoice<T extends { invoice_id: string }>(rows: T[]): Map<string, T[]> {
  const grouped = new Map<string, T[]>();
  for (const row of rows) grouped.set(row.invoice_id, [...(grouped.get(row.invoice_id) ?? []), row]);
  return grouped;
}

/**
 * What invoices answer: each row as issued, its lines and VAT by rate, how much is paid, its credit note, its e-mails
 * (four queries for any number of invoices).
 */
async function presentAll(conn: DbOrTrx, hotelId: string, invoices: InvoiceRow[]) {
  const ids = invoices.map((invoice) => invoice.id);
  if (ids.length === 0) return [];
  const [lines, notes, payments, emails] = [
    byInvoice(await invoicesRepository.lines(conn, hotelId, ids)),
    byInvoice(await creditNotesRepository.ofInvoices(conn, hotelId, ids)),
    byInvoice(await paymentsRepository.ofInvoices(conn, hotelId, ids)),
    byInvoice(await emailsRepository.ofInvoices(conn, hotelId, ids)),
  ];
  return invoices.map(({ hotel_id: _hotel, pdf_key: _key, sequence: _sequence, ...shown }) => {
    const own = (lines.get(shown.id) ?? []).map(({ invoice_id: _invoice, ...line }) => line);
    return {
      ...shown,
      payment_status: paymentStatusOf(shown),
      lines: own,
      vat: vatByRate(own),
      credit_note: notes.get(shown.id)?.[0] ?? null,
      payments: payments.get(shown.id) ?? [],
      emails: emails.get(shown.id) ?? [],
    };
  });
}

const present = async (conn: DbOrTrx, invoice: InvoiceRow) => (await presentAll(conn, invoice.hotel_id, [invoice]))[0];

/**
 * The lines to invoice: those chosen (each of the folio, a charge, on no live invoice), or every such line but the
 * corrections of lines on a live invoice (settled by its credit note and reissue), at most MAX_INVOICE_LINES.
 */
async function chooseLines(trx: DbOrTrx, hotelId: string, found: LockedFolio, chosen?: string[]) {
  const { lines, corrected } = found;
  const invoiced = await invoicesRepository.liveLineIds(trx, hotelId, [
    ...lines.map((line) => line.id),
    ...corrected.keys(),
  ]);
  if (!chosen) {
    const open = lines.filter(
      (line) =>
        isInvoiceable(line, corrected) && !invoiced.has(line.id) && !correctsInvoiced(line, corrected, invoiced),
    );
    if (open.length === 0) throw invoiceErrors.rule(invoiceMessages.nothingToInvoice, 'nothing_to_invoice');
    if (open.length > MAX_INVOICE_LINES)
      throw invoiceErrors.rule(invoiceMessages.tooManyLines(MAX_INVOICE_LINES), 'too_many_lines');
    return open;
  }
  const byId = new Map(lines.map((line) => [line.id, line]));
  const picked = [...new Set(chosen)].map((id) => byId.get(id));
  if (picked.some((line) => !line)) throw invoiceErrors.body('line_ids', invoiceMessages.lineNotOfFolio);
  if (picked.some((line) => !isInvoiceable(line!, corrected)))
    throw invoiceErrors.rule(invoiceMessages.lineNotInvoiceable, 'line_not_invoiceable');
  if (picked.some((line) => invoiced.has(line!.id)))
    throw invoiceErrors.conflict(invoiceMessages.lineInvoiced, 'line_invoiced');
  return picked as FolioLine[];
}

/**
 * Invoices issued from folios to their payers, numbered without gaps per hotel and year; their PDFs kept in the object
 * store and e-mailed on request; cancelled by credit notes; paid into their folios.
 */
export function createInvoicesService(db: Db, storage: Storage, deps: InvoicesDependencies) {
  // An invoice is a snapshot of its lines: one on a live invoice stays on its folio until a credit note cancels it.
  deps.folios.guardMoves(async (trx, hotelId, line) => {
    if ((await invoicesRepository.liveLineIds(trx, hotelId, [line.id])).size > 0)
      throw invoiceErrors.conflict(invoiceMessages.lineOnInvoice, 'line_on_invoice');
  });
  // An invoice's payment stays in the booking's ledger: the desk deleting it would leave the invoice paid.
  deps.bookings.followLedger(async (trx, entry) => {
    if (entry.kind !== 'payment_removed') return;
    if (await paymentsRepository.ofLedgerRow(trx, entry.booking.hotel_id, entry.payment.id))
      throw invoiceErrors.conflict(invoiceMessages.paymentOfInvoice, 'payment_of_invoice');
  });

  async function sellerOf(hotelId: string): Promise<Seller> {
    const [hotel, settings] = await Promise.all([deps.hotels.find(hotelId), deps.hotels.settingsOf(hotelId)]);
    const missing = missingRequisites(settings!).map((field) => REQUISITE_NAMES[field]);
    if (missing.length > 0)
      throw invoiceErrors.rule(invoiceMessages.requisitesMissing(missing), 'requisites_missing', missing);
    const requisites = Object.fromEntries(REQUISITE_FIELDS.map((field) => [field, settings![field]]));
    return { hotel_name: hotel!.name, ...requisites } as Seller;
  }

  async function payerOf(
    trx: DbOrTrx,
    hotelId: string,
    folio: { booking_id: string; payer_kind: string; payer_name: string | null; payer_inn: string | null },
  ): Promise<Payer> {
    if (folio.payer_kind === 'company') return { kind: 'company', name: folio.payer_name!, inn: folio.payer_inn };
    const booking = await deps.bookings.getWithin(trx, hotelId, folio.booking_id);
    const name = [booking.guest_last_name, booking.guest_first_name, booking.guest_middle_name].filter(Boolean);
    return { kind: 'guest', name: name.join(' '), inn: null };
  }

  async function find(conn: DbOrTrx, hotelId: string, id: string, forUpdate = false) {
    const invoice = await invoicesRepository.find(conn, hotelId, id, forUpdate);
    if (!invoice) throw invoiceErrors.notFound();
    return invoice;
  }

  /**
   * The invoice's PDF: from the object store, rendered and kept there (private to the API) the first time it is
   * downloaded or e-mailed (not at issue: rendering takes the event loop for about 100 ms, which 50 issues at once
   * must not wait for). A cancelled invoice's is rendered at each download with its «АННУЛИРОВАН» mark.
   */
  async function pdfOf(invoice: InvoiceRow): Promise<Buffer> {
    const lines = () => invoicesRepository.lines(db, invoice.hotel_id, [invoice.id]);
    if (invoice.status === 'cancelled') return renderInvoicePdf(invoice, await lines());
    const stored = invoice.pdf_key ? await inStore(() => storage.read(invoice.pdf_key!)) : undefined;
    if (stored) return Buffer.concat(await stored.toArray());
    const pdf = await renderInvoicePdf(invoice, await lines());
    const key = pdfKey(invoice);
    await inStore(() => storage.put(key, pdf, 'application/pdf', { cacheControl: 'private, no-store' }));
    // Two first downloads at once: one object is kept, the other's removed (both rendered the same snapshot).
    if (!(await invoicesRepository.keepPdf(db, invoice.hotel_id, invoice.id, key))) await storage.remove(key);
    return pdf;
  }

  const settlement = createSettlement(db, { ...deps, find, present });

  return {
    ...settlement,

    /**
     * Issues an invoice for the folio's open charges (or those chosen), to its payer, with the hotel's requisites as
     * they are now; its number is the next of the hotel's year, taken in the same transaction (no gap, no repeat).
     */
    async issue(hotelId: string, input: IssueInput, userId: string | null) {
      const seller = await sellerOf(hotelId);
      const hotel = (await deps.hotels.find(hotelId))!;
      const invoice = await transactionWithRetry(db, async (trx) => {
        const found = await deps.folios.lockedFolio(trx, hotelId, input.folio_id);
        if (!found) throw invoiceErrors.body('folio_id', invoiceMessages.folioNotFound);
        const lines = invoiceLines(await chooseLines(trx, hotelId, found, input.line_ids));
        const total = sumMoney(lines.map((line) => parseMoney(line.amount)));
        if (total <= 0n) throw invoiceErrors.rule(invoiceMessages.notPositive, 'not_positive');
        const issuedOn = hotelToday(hotel.timezone);
        const year = Number(issuedOn.slice(0, 4));
        const payer = await payerOf(trx, hotelId, found.folio);
        // The counter last: its row stays locked until commit, so nothing slow may come after it.
        const sequence = await countersRepository.next(trx, hotelId, 'invoice', year);
        const row = await invoicesRepository.insert(
          trx,
          hotelId,
          {
            booking_id: found.folio.booking_id,
            folio_id: found.folio.id,
            year,
            sequence,
            number: documentNumber('invoice', year, sequence),
            issued_on: issuedOn,
            seller,
            payer,
            total: formatMoney(total),
            vat_total: formatMoney(sumMoney(lines.map((line) => parseMoney(line.vat_amount)))),
            issued_by: userId,
          },
          lines,
        );
        await settlement.announce(trx, row, 'issued');
        return row;
      });
      return present(db, invoice);
    },

    async get(hotelId: string, id: string) {
      return present(db, await find(db, hotelId, id));
    },

    async list(hotelId: string, filter: { booking_id?: string; year?: number; limit: number }) {
      return presentAll(db, hotelId, await invoicesRepository.list(db, hotelId, filter, filter.limit));
    },

    async pdf(hotelId: string, id: string) {
      const invoice = await find(db, hotelId, id);
      return { number: invoice.number, pdf: await pdfOf(invoice) };
    },

    /** E-mails the invoice's PDF to `to` through the invoice e-mail workflow (answered at once, sent after). */
    async email(hotelId: string, id: string, to: string, userId: string | null) {
      const hotel = (await deps.hotels.find(hotelId))!;
      return db.transaction(async (trx) => {
        const invoice = await find(trx, hotelId, id, true);
        if (invoice.status === 'cancelled') throw invoiceErrors.conflict(invoiceMessages.cancelled, 'cancelled');
        if ((await emailsRepository.count(trx, hotelId, invoice.id)) >= MAX_EMAILS)
          throw invoiceErrors.rule(invoiceMessages.tooManyEmails(MAX_EMAILS), 'email_limit');
        const email = await emailsRepository.insert(trx, hotelId, invoice.id, to, userId);
        await enqueueOutbox(
          trx,
          startWorkflowMessage<InvoiceEmailWorkflow>(
            'invoiceEmail',
            invoiceWorkflowIds.invoiceEmail(email.id),
            [{ hotelId, emailId: email.id }],
            { HotelSlug: hotel.slug },
            { hotel: hotel.slug, invoice: invoice.number },
          ),
        );
        return email;
      });
    },

    /** The e-mail's message with the PDF attached, for the worker's activity; undefined when there is no such e-mail. */
    async emailMessage(hotelId: string, emailId: string) {
      const email = await emailsRepository.find(db, hotelId, emailId);
      if (!email) return undefined;
      const invoice = await find(db, hotelId, email.invoice_id);
      const seller = invoice.seller.legal_name ?? invoice.seller.hotel_name;
      return {
        email,
        message: {
          to: email.to,
          subject: invoiceMessages.emailSubject(invoice.number, seller),
          text: invoiceMessages.emailText(invoice.number, seller),
          html: `<p>${escapeHtml(invoiceMessages.emailText(invoice.number, seller)).replace(/\n/g, '<br>')}</p>`,
          attachments: [
            {
              filename: `invoice-${invoice.number}.pdf`,
              content: await pdfOf(invoice),
              contentType: 'application/pdf',
            },
          ],
        },
      };
    },

    markEmailSent: (hotelId: string, emailId: string) => emailsRepository.markSent(db, hotelId, emailId),
  };
}

export type InvoicesService = ReturnType<typeof createInvoicesService>;
