import type { ModuleFixtures } from '../../platform/fixtures';

/** Valid requisites (INN and accounts with their check digits right), the names carrying the hotel's canary. */
export const fixtureRequisites = (canary: string) => ({
  legal_name: `ООО Гостиница ${canary}`,
  inn: '7707083893',
  kpp: '773601001',
  legal_address: `Москва, ул. Тестовая, 1, ${canary}`,
  bank_name: `ПАО Банк ${canary}`,
  bik: '044525225',
  settlement_account: '40702810938000012345',
  correspondent_account: '30101810400000000225',
});

/**
 * The hotel's requisites filled; an invoice of a service line of the seeded booking's guest folio, paid in part; a
 * line on the seeded company folio left to invoice.
 */
export const invoicesFixtures: ModuleFixtures = {
  needs: ['booking', 'folio'],
  records: {
    invoice: { paths: ['/api/hotels/:slug/invoices/:id'] },
    invoiceable_line: { fields: ['POST /api/hotels/:slug/invoices line_ids[]'] },
  },
  requests: {
    body: {
      'POST /api/hotels/:slug/invoices': {
        base: (r) => ({ folio_id: r.folio }),
        variants: {
          'line_ids[]': {
            build: (r) => ({ folio_id: r.folio, line_ids: [r.invoiceable_line] }),
            uncontrolled: 'the control of the base request invoices every open line of that folio, this one with it',
          },
        },
        control: true,
      },
    },
  },
  async seed({ request, records, canary }) {
    await request('/settings', { method: 'patch', body: fixtureRequisites(canary), status: 200 });
    const folio = `/bookings/${records.booking}/folio`;
    const view = await request<{ folios: { id: string; payer_kind: string }[] }>(folio, { method: 'get' });
    const guest = view.folios.find((f) => f.payer_kind === 'guest')!;
    const line = await request<{ id: string }>(`${folio}/lines`, {
      body: { kind: 'service', amount: '99', description: `Invoiced ${canary}`, folio_id: records.folio },
    });
    // Its own line only: the folios' seeded line stays movable (a line on a live invoice is not moved).
    const billed = await request<{ id: string }>(`${folio}/lines`, {
      body: { kind: 'service', amount: '50', description: `Billed ${canary}` },
    });
    const invoice = await request<{ id: string }>('/invoices', { body: { folio_id: guest.id, line_ids: [billed.id] } });
    await request(`/invoices/${invoice.id}/payments`, { body: { amount: '10.00' } });
    return { invoice: invoice.id, invoiceable_line: line.id };
  },
};
