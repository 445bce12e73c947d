import express, { type Router } from 'express';
import type { YooKassaPayment } from '../../../src/integrations/yookassa';
import { CARD_CHOICES } from './cards';
import { invalidRequest } from './errors';
import type { Payments } from './payments';

/**
 * Where confirmation_url leads: the payer picks a test card and pays. POST /payer/:paymentId takes `card` (form or
 * JSON): success, decline, 3ds_fail or a test card number; then it sends the payer back to the return_url (303), or
 * answers `{ payment_id, status }` to a request that accepts JSON.
 */
export function payerRoutes(payments: Payments): Router {
  const router = express.Router();
  router.get('/:paymentId', (request, response) => {
    response.type('html').send(payerPage(payments.peek(request.params.paymentId)));
  });
  router.post('/:paymentId', express.urlencoded({ extended: false }), express.json(), (request, response) => {
    const card: unknown = (request.body as Record<string, unknown> | undefined)?.card;
    if (typeof card !== 'string') throw invalidRequest('Choose a card', 'card');
    const payment = payments.pay(request.params.paymentId, card);
    if (request.get('Accept')?.includes('application/json')) {
      response.json({ payment_id: payment.id, status: payment.status });
    } else {
      response.redirect(303, payment.confirmation?.return_url ?? '/');
    }
  });
  return router;
}

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function payerPage(payment: YooKassaPayment): string {
  const amount = `${payment.amount.value} ${payment.amount.currency}`;
  const options = CARD_CHOICES.map(
    ([number, label]) => `<option value="${number}">${number.replace(/(\d{4})(?=\d)/g, '$1 ')} — ${label}</option>`,
  ).join('');
  const form =
    payment.status === 'pending'
      ? `<form method="post"><label>Test card <select name="card">${options}</select></label>
<p><button type="submit">Pay ${escapeHtml(amount)}</button></p></form>`
      : `<p>This payment is <b>${payment.status}</b> and can no longer be paid.</p>`;
  return `<!doctype html><html><head><meta charset="utf-8"><title>YooKassa sandbox payment</title>
<style>body{font-family:sans-serif;margin:2em;max-width:40em}select,button{font-size:1em;padding:.3em}</style>
</head><body><h1>YooKassa sandbox</h1>
<p>${escapeHtml(payment.description ?? 'Payment')}: <b>${escapeHtml(amount)}</b></p>
${form}</body></html>`;
}
