import Joi from 'joi';
import { defineHotelEvent } from '../../platform/realtime/events';
import { INVOICE_STATUSES, PAYMENT_STATUSES, type InvoiceStatus, type PaymentStatus } from './invoices.types';

interface InvoicePayload {
  invoice_id: string;
  booking_id: string;
  number: string;
  change: 'issued' | 'paid' | 'cancelled';
  status: InvoiceStatus;
  payment_status: PaymentStatus;
}

/** The desk and the accountant see an invoice issued, paid (in part or in full) or cancelled, without polling. */
export const invoiceUpdated = defineHotelEvent<InvoicePayload>(
  'invoice_updated',
  'An invoice was issued, paid (in part or in full) or cancelled by a credit note.',
  Joi.object({
    invoice_id: Joi.string().uuid().required(),
    booking_id: Joi.string().uuid().required(),
    number: Joi.string().required(),
    change: Joi.string().valid('issued', 'paid', 'cancelled').required(),
    status: Joi.string()
      .valid(...INVOICE_STATUSES)
      .required(),
    payment_status: Joi.string()
      .valid(...PAYMENT_STATUSES)
      .required(),
  }),
);
