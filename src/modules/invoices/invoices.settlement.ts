import type { Db, DbOrTrx } from '../../platform/db/knex';
import { transactionWithRetry } from '../../platform/db/retry';
import { formatMoney, parseMoney } from '../../platform/money';
import { hotelToday } from '../bookings';
import type { BookingsService } from '../bookings';
import type { FoliosService } from '../folios';
import type { HotelsService } from '../hotels';
import { invoiceUpdated } from './invoices.events';
import { invoiceErrors, invoiceMessages } from './invoices.messages';
import {
  countersRepository,
  creditNotesRepository,
  invoicesRepository,
  paymentsRepository,
} from './invoices.repository';
import { documentNumber, paymentStatusOf } from './invoices.rules';
import { LEDGER_METHODS, type InvoiceRow, type PaymentInput } from './invoices.types';

interface SettlementDependencies {
  hotels: Pick<HotelsService, 'find'>;
  bookings: Pick<BookingsService, 'payments'>;
  folios: Pick<FoliosService, 'placeLine'>;
  find(conn: DbOrTrx, hotelId: string, id: string, forUpdate?: boolean): Promise<InvoiceRow>;
  present(conn: DbOrTrx, invoice: InvoiceRow): Promise<unknown>;
}

/** What happens to an issued invoice: cancelled by a credit note, paid (in part) into its folio; each announced. */
export function createSettlement(db: Db, deps: SettlementDependencies) {
  async function announce(trx: DbOrTrx, invoice: InvoiceRow, change: 'issued' | 'paid' | 'cancelled') {
    await invoiceUpdated.publish(trx, invoice.hotel_id, {
      invoice_id: invoice.id,
      booking_id: invoice.booking_id,
      number: invoice.number,
      change,
      status: invoice.status,
      payment_status: paymentStatusOf(invoice),
    });
  }

  return {
    announce,

    /**
     * Cancels the invoice by a credit note numbered in its own gapless series of the hotel's year; the invoice's lines
     * may then be invoiced again. An invoice with payments is not cancelled (409).
     */
    async cancel(hotelId: string, id: string, reason: string, userId: string | null) {
      const hotel = (await deps.hotels.find(hotelId))!;
      return transactionWithRetry(db, async (trx) => {
        const invoice = await deps.find(trx, hotelId, id, true);
        if (invoice.status === 'cancelled') throw invoiceErrors.conflict(invoiceMessages.cancelled, 'cancelled');
        if (parseMoney(invoice.paid_amount) > 0n)
          throw invoiceErrors.conflict(invoiceMessages.hasPayments, 'has_payments');
        const issuedOn = hotelToday(hotel.timezone);
        const year = Number(issuedOn.slice(0, 4));
        const sequence = await countersRepository.next(trx, hotelId, 'credit_note', year);
        const note = await creditNotesRepository.insert(trx, hotelId, {
          invoice_id: invoice.id,
          year,
          sequence,
          number: documentNumber('credit_note', year, sequence),
          issued_on: issuedOn,
          total: invoice.total,
          reason,
          issued_by: userId,
        });
        await invoicesRepository.cancel(trx, hotelId, invoice.id);
        await announce(trx, { ...invoice, status: 'cancelled' }, 'cancelled');
        return note;
      });
    },

    /**
     * A bank transfer paying the invoice, recorded in the booking's payment ledger as the desk's payments are (its
     * `paid_amount`, the folio's `payment` line, source `payment:<ledger id>`, put on the invoice's folio), in one
     * transaction; partial payments add up, more than is left is refused (422), a cancelled invoice takes none (409).
     * Cash and cards are the desk's (a 54-FZ receipt at its register): 422 here.
     */
    async pay(hotelId: string, id: string, input: PaymentInput, userId: string | null) {
      const method = input.method ?? 'bank_transfer';
      if (method !== 'bank_transfer') throw invoiceErrors.rule(invoiceMessages.paymentAtDesk, 'payment_at_desk');
      return transactionWithRetry(db, async (trx) => {
        const invoice = await deps.find(trx, hotelId, id, true);
        if (invoice.status === 'cancelled') throw invoiceErrors.conflict(invoiceMessages.cancelled, 'cancelled');
        const amount = parseMoney(input.amount);
        const left = parseMoney(invoice.total) - parseMoney(invoice.paid_amount);
        if (amount > left) throw invoiceErrors.rule(invoiceMessages.overpaid(formatMoney(left)), 'overpaid');
        const recorded = await deps.bookings.payments.recordWithin(
          trx,
          hotelId,
          invoice.booking_id,
          { amount: formatMoney(amount), method: LEDGER_METHODS[method], note: `Оплата по счёту № ${invoice.number}` },
          userId,
        );
        const line = await deps.folios.placeLine(
          trx,
          hotelId,
          `payment:${recorded.payment.id}`,
          invoice.folio_id,
          userId,
        );
        const payment = await paymentsRepository.insert(trx, hotelId, {
          invoice_id: invoice.id,
          amount: formatMoney(amount),
          method,
          booking_payment_id: recorded.payment.id,
          folio_line_id: line.id,
          paid_by: userId,
        });
        const paid = { ...invoice, paid_amount: formatMoney(parseMoney(invoice.paid_amount) + amount) };
        await invoicesRepository.setPaid(trx, hotelId, invoice.id, paid.paid_amount);
        await announce(trx, paid, 'paid');
        return { payment, invoice: await deps.present(trx, paid) };
      });
    },
  };
}
