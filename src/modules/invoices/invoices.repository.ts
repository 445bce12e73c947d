import type { Knex } from 'knex';
import type { DbOrTrx } from '../../platform/db/knex';
import type {
  CreditNote,
  InvoiceEmail,
  InvoiceLine,
  InvoicePayment,
  InvoiceRow,
  NewInvoiceLine,
  Series,
} from './invoices.types';

const DATE = (column: string) => `to_char(${column}, 'YYYY-MM-DD') AS ${column}`;
const INVOICE_COLUMNS = [
  'id',
  'hotel_id',
  'booking_id',
  'folio_id',
  'year',
  'sequence',
  'number',
  DATE('issued_on'),
  'seller',
  'payer',
  'total',
  'vat_total',
  'paid_amount',
  'status',
  'pdf_key',
  'issued_by',
  'issued_at',
].join(', ');
const LINE_COLUMNS = `id, invoice_id, folio_line_id, position, description, ${DATE('business_date')}, amount, vat_rate, vat_amount`;
const CREDIT_NOTE_COLUMNS = `id, invoice_id, year, sequence, number, ${DATE('issued_on')}, total, reason, issued_by, issued_at`;
const PAYMENT_COLUMNS = [
  'id',
  'invoice_id',
  'amount',
  'method',
  'booking_payment_id',
  'folio_line_id',
  'paid_by',
  'paid_at',
];
const EMAIL_COLUMNS = ['id', 'invoice_id', 'to', 'requested_by', 'requested_at', 'sent_at'];

export const countersRepository = {
  /**
   * The next number of the series this year, the counter row kept locked until the caller's transaction ends: a
   * concurrent issue waits, and a rolled-back one gives its number back (no gap, no duplicate).
   */
  async next(trx: DbOrTrx, hotelId: string, series: Series, year: number): Promise<number> {
    const { rows } = (await trx.raw(
      `INSERT INTO invoice_counters AS c (hotel_id, series, year, last) VALUES (?, ?, ?, 1)
       ON CONFLICT (hotel_id, series, year) DO UPDATE SET last = c.last + 1
       RETURNING last`,
      [hotelId, series, year],
    )) as { rows: { last: number }[] };
    return rows[0].last;
  },
};

export const invoicesRepository = {
  /** The invoice and its lines; answered as `find` answers it. */
  async insert(
    trx: DbOrTrx,
    hotelId: string,
    invoice: Omit<InvoiceRow, 'id' | 'hotel_id' | 'paid_amount' | 'status' | 'pdf_key' | 'issued_at'>,
    lines: NewInvoiceLine[],
  ): Promise<InvoiceRow> {
    const [row] = (await trx('invoices')
      .insert({
        ...invoice,
        hotel_id: hotelId,
        seller: JSON.stringify(invoice.seller),
        payer: JSON.stringify(invoice.payer),
      })
      .returning(trx.raw(INVOICE_COLUMNS))) as InvoiceRow[];
    await trx('invoice_lines').insert(lines.map((line) => ({ ...line, hotel_id: hotelId, invoice_id: row.id })));
    return row;
  },

  async find(db: DbOrTrx, hotelId: string, id: string, forUpdate = false): Promise<InvoiceRow | undefined> {
    const query = db('invoices').select(db.raw(INVOICE_COLUMNS)).where({ hotel_id: hotelId, id }).first();
    return (await (forUpdate ? query.forUpdate() : query)) as InvoiceRow | undefined;
  },

  async list(db: DbOrTrx, hotelId: string, filter: { booking_id?: string; year?: number }, limit: number) {
    const query = db('invoices').select(db.raw(INVOICE_COLUMNS)).where({ hotel_id: hotelId });
    if (filter.booking_id) query.where({ booking_id: filter.booking_id });
    if (filter.year) query.where({ year: filter.year });
    return (await query
      .orderBy([
        { column: 'year', order: 'desc' },
        { column: 'sequence', order: 'desc' },
      ])
      .limit(limit)) as InvoiceRow[];
  },

  /** The lines of these invoices, each invoice's in their order. */
  async lines(db: DbOrTrx, hotelId: string, invoiceIds: string[]): Promise<(InvoiceLine & { invoice_id: string })[]> {
    return (await db('invoice_lines')
      .select(db.raw(LINE_COLUMNS))
      .where({ hotel_id: hotelId })
      .whereIn('invoice_id', invoiceIds)
      .orderBy(['invoice_id', 'position'])) as (InvoiceLine & { invoice_id: string })[];
  },

  /** Of these folio lines, those on an invoice not cancelled. */
  async liveLineIds(db: DbOrTrx, hotelId: string, folioLineIds: string[]): Promise<Set<string>> {
    const rows = (await db('invoice_lines')
      .select('folio_line_id')
      .where({ hotel_id: hotelId, live: true })
      .whereIn('folio_line_id', folioLineIds)) as { folio_line_id: string }[];
    return new Set(rows.map((row) => row.folio_line_id));
  },

  async setPaid(db: DbOrTrx, hotelId: string, id: string, paidAmount: string): Promise<void> {
    await db('invoices').where({ hotel_id: hotelId, id }).update({ paid_amount: paidAmount });
  },

  /** Records where its PDF is kept, unless another request did first (false then). */
  async keepPdf(db: DbOrTrx, hotelId: string, id: string, key: string): Promise<boolean> {
    const kept = await db('invoices')
      .where({ hotel_id: hotelId, id })
      .whereNull('pdf_key')
      .update({ pdf_key: key })
      .returning('id');
    return kept.length > 0;
  },

  /** Cancelled: its lines may be invoiced again. */
  async cancel(db: DbOrTrx, hotelId: string, id: string): Promise<void> {
    await db('invoices').where({ hotel_id: hotelId, id }).update({ status: 'cancelled' });
    await db('invoice_lines').where({ hotel_id: hotelId, invoice_id: id }).update({ live: false });
  },

  /** Invoices of the bookings whose PDF is in the object store (rendered with the payer's name), locked. */
  async renderedPdfs(
    trx: Knex.Transaction,
    hotelId: string,
    bookingIds: string[],
  ): Promise<{ id: string; pdf_key: string }[]> {
    if (bookingIds.length === 0) return [];
    return trx('invoices')
      .where({ hotel_id: hotelId })
      .whereIn('booking_id', bookingIds)
      .whereNotNull('pdf_key')
      .forUpdate()
      .select('id', 'pdf_key');
  },

  async forgetPdfs(trx: Knex.Transaction, hotelId: string, ids: string[]): Promise<void> {
    if (ids.length > 0) await trx('invoices').where({ hotel_id: hotelId }).whereIn('id', ids).update({ pdf_key: null });
  },
};

export const creditNotesRepository = {
  async insert(db: DbOrTrx, hotelId: string, note: Omit<CreditNote, 'id' | 'issued_at'>): Promise<CreditNote> {
    await db('credit_notes').insert({ ...note, hotel_id: hotelId });
    return (await creditNotesRepository.ofInvoices(db, hotelId, [note.invoice_id]))[0];
  },

  async ofInvoices(db: DbOrTrx, hotelId: string, invoiceIds: string[]): Promise<CreditNote[]> {
    return (await db('credit_notes')
      .select(db.raw(CREDIT_NOTE_COLUMNS))
      .where({ hotel_id: hotelId })
      .whereIn('invoice_id', invoiceIds)) as CreditNote[];
  },
};

export const paymentsRepository = {
  async insert(db: DbOrTrx, hotelId: string, payment: Omit<InvoicePayment, 'id' | 'paid_at'>): Promise<InvoicePayment> {
    const [row] = (await db('invoice_payments')
      .insert({ ...payment, hotel_id: hotelId })
      .returning(PAYMENT_COLUMNS)) as InvoicePayment[];
    return row;
  },

  /** The invoice payment recorded as that row of the booking's payment ledger, if any. */
  async ofLedgerRow(db: DbOrTrx, hotelId: string, bookingPaymentId: string): Promise<InvoicePayment | undefined> {
    return (await db('invoice_payments')
      .select(PAYMENT_COLUMNS)
      .where({ hotel_id: hotelId, booking_payment_id: bookingPaymentId })
      .first()) as InvoicePayment | undefined;
  },

  async ofInvoices(db: DbOrTrx, hotelId: string, invoiceIds: string[]): Promise<InvoicePayment[]> {
    return (await db('invoice_payments')
      .select(PAYMENT_COLUMNS)
      .where({ hotel_id: hotelId })
      .whereIn('invoice_id', invoiceIds)
      .orderBy([{ column: 'paid_at' }, { column: 'id' }])) as InvoicePayment[];
  },
};

export const emailsRepository = {
  async insert(db: DbOrTrx, hotelId: string, invoiceId: string, to: string, by: string | null) {
    const [row] = (await db('invoice_emails')
      .insert({ hotel_id: hotelId, invoice_id: invoiceId, to, requested_by: by })
      .returning(EMAIL_COLUMNS)) as InvoiceEmail[];
    return row;
  },

  async find(db: DbOrTrx, hotelId: string, id: string): Promise<InvoiceEmail | undefined> {
    return (await db('invoice_emails').select(EMAIL_COLUMNS).where({ hotel_id: hotelId, id }).first()) as
      InvoiceEmail | undefined;
  },

  async markSent(db: DbOrTrx, hotelId: string, id: string): Promise<void> {
    await db('invoice_emails').where({ hotel_id: hotelId, id }).whereNull('sent_at').update({ sent_at: db.fn.now() });
  },

  async ofInvoices(db: DbOrTrx, hotelId: string, invoiceIds: string[]): Promise<InvoiceEmail[]> {
    return (await db('invoice_emails')
      .select(EMAIL_COLUMNS)
      .where({ hotel_id: hotelId })
      .whereIn('invoice_id', invoiceIds)
      .orderBy([{ column: 'requested_at' }, { column: 'id' }])) as InvoiceEmail[];
  },

  async count(db: DbOrTrx, hotelId: string, invoiceId: string): Promise<number> {
    const [{ count }] = (await db('invoice_emails')
      .where({ hotel_id: hotelId, invoice_id: invoiceId })
      .count({ count: '*' })) as { count: string }[];
    return Number(count);
  },
};
