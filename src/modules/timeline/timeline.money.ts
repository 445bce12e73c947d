import type { Deposit, DepositRefund } from '../deposits';
import type { BookingPayment } from '../payments';
import type { TimelineDependencies } from './timeline.dependencies';
import { guest, job, provider, staff } from './timeline.actors';
import { auditActor } from './timeline.changes';
import { folio } from './timeline.folio';
import { readOf, type SourceActor, type SourceEntry, type TimelineSource } from './timeline.types';

const YOOKASSA = provider('yookassa');

/** Online payments asked of the guest: created (by staff or the widget), then paid or given up. */
const onlinePayments: TimelineSource<TimelineDependencies> = {
  name: 'online_payments',
  async read(_deps, { limit, shared }) {
    const all = await shared.onlinePayments();
    const entries = all.slice(-limit).flatMap((row): SourceEntry[] => [
      {
        at: row.created_at,
        kind: 'online_payment_requested',
        summary: `${row.amount} ${row.currency}`,
        actor: row.created_by ? staff(row.created_by) : guest,
      },
      ...(row.status === 'pending'
        ? []
        : [
            {
              at: row.updated_at,
              kind: `online_payment_${row.status}`,
              summary: `${row.amount} ${row.currency}${row.cancel_reason ? `: ${row.cancel_reason}` : ''}`,
              // Given up when the payer's time ran out: the payment's workflow; otherwise the provider's word.
              actor: row.cancel_reason === 'not_paid' ? job('bookingPayment') : YOOKASSA,
            },
          ]),
    ]);
    return { entries, cut: all.length > limit };
  },
};

/** Ledger rows: money taken (or given back, negative) at the desk, online or at booking. */
function paymentEntries(rows: BookingPayment[]): SourceEntry[] {
  // Money paid online is the online payments source's (`online_payment_succeeded`): not told twice.
  return rows
    .filter((row) => !(row.method === 'online' && Number(row.amount) > 0))
    .map((row) => ({
      at: row.paid_at,
      kind: Number(row.amount) < 0 ? 'payment_returned' : 'payment',
      summary: `${row.amount} (${row.method})${row.note ? `: ${row.note}` : ''}`,
      actor: row.method === 'online' ? YOOKASSA : staff(row.created_by),
    }));
}

/** How a deposit was settled: what was kept of it, and why (the deductions the desk decided). */
const keptOf = ({ deductions, currency }: Deposit) =>
  deductions.length ? `: kept ${deductions.map((d) => `${d.name} ${d.amount} ${currency}`).join(', ')}` : '';

/** Deposits: asked, confirmed (cash at the desk, others by the provider), closed by whom the log says; refunds. */
function depositEntries(rows: Deposit[], refunds: DepositRefund[], closers: Map<string | null, SourceActor | null>) {
  const entries = rows.flatMap((row): SourceEntry[] => [
    {
      at: row.created_at,
      kind: 'deposit',
      summary: `${row.kind} ${row.amount} ${row.currency}`,
      actor: staff(row.created_by),
    },
    ...(row.confirmed_at
      ? [
          {
            at: row.confirmed_at,
            kind: 'deposit_confirmed',
            summary: `${row.amount} ${row.currency}`,
            actor: row.kind === 'cash' ? staff(row.created_by) : YOOKASSA,
          },
        ]
      : []),
    ...(row.closed_at
      ? [
          {
            at: row.closed_at,
            kind: 'deposit_closed',
            summary: `${row.status}, ${row.amount} ${row.currency} (captured ${row.captured_amount})${keptOf(row)}`,
            actor: closers.get(row.id) ?? null,
          },
        ]
      : []),
    // The guest's statement of a released deposit (what was kept and why), sent once by its workflow.
    ...(row.statement_sent_at
      ? [
          {
            at: row.statement_sent_at,
            kind: 'guest_email',
            summary: 'E-mail to the guest: deposit statement',
            actor: job('deposit'),
          },
        ]
      : []),
  ]);
  return entries.concat(
    refunds.map((refund) => ({
      at: refund.completed_at ?? refund.created_at,
      kind: 'deposit_refund',
      summary: `${refund.amount} (${refund.status})`,
      actor: staff(refund.created_by),
    })),
  );
}

/** The money taken and held: payments, deposits and refunds, and the fiscal receipts of them all (one read each). */
const money: TimelineSource<TimelineDependencies> = {
  name: 'money',
  async read({ payments, fiscal, audit }, { hotelId, bookingId, limit, shared }) {
    const fullLedger = await payments.ledger.list(hotelId, bookingId);
    const ledger = fullLedger.slice(-limit);
    const { deposits: rows, refunds } = await shared.deposits();
    const closed = rows.filter((row) => row.closed_at).map((row) => row.id);
    const closings = await audit.writesOf(hotelId, { resource: 'deposits', ids: closed }, 'closed_at', limit);
    const closers = new Map(closings.map((entry) => [entry.resource_id, auditActor(entry.actor)]));
    const sources = [...ledger.map((p) => p.id), ...rows.map((d) => d.id), ...refunds.map((r) => r.id)];
    const receipts = (await fiscal.ofSources(hotelId, sources, limit)).map((receipt) => ({
      at: receipt.updated_at,
      kind: 'fiscal_receipt',
      summary: `${receipt.operation} ${receipt.total} (${receipt.status})`,
      actor: job('fiscalReceipt'),
    }));
    const entries = [...paymentEntries(ledger), ...depositEntries(rows, refunds, closers), ...receipts];
    const cut = readOf(entries, limit, rows.length, refunds.length, receipts.length).cut;
    return { entries, cut: cut || fullLedger.length > limit };
  },
};

const invoices: TimelineSource<TimelineDependencies> = {
  name: 'invoices',
  async read({ invoices }, { hotelId, bookingId, limit }) {
    const rows = await invoices.list(hotelId, { booking_id: bookingId, limit });
    const entries = rows.flatMap((invoice): SourceEntry[] => [
      {
        at: invoice.issued_at,
        kind: 'invoice',
        summary: `№ ${invoice.number}, ${invoice.total} (${invoice.status})`,
        actor: staff(invoice.issued_by),
      },
      // The e-mails of the invoice the desk asked for, once sent by their workflow.
      ...invoice.emails.flatMap((email) =>
        email.sent_at
          ? [
              {
                at: email.sent_at,
                kind: 'invoice_email',
                summary: `Invoice № ${invoice.number} e-mailed`,
                actor: staff(email.requested_by) ?? job('invoiceEmail'),
              },
            ]
          : [],
      ),
      ...(invoice.credit_note
        ? [
            {
              at: invoice.credit_note.issued_at,
              kind: 'credit_note',
              summary: `№ ${invoice.credit_note.number}, ${invoice.credit_note.total}: ${invoice.credit_note.reason}`,
              actor: staff(invoice.credit_note.issued_by),
            },
          ]
        : []),
    ]);
    return readOf(entries, limit, rows.length);
  },
};

export const MONEY_SOURCES = [money, onlinePayments, folio, invoices];
