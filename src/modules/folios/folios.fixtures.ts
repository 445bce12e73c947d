import { day, type ModuleFixtures } from '../../platform/fixtures';

const service = (n: number) => ({ kind: 'service', amount: '10', description: `Gate service ${n}` });

/** On the seeded booking's folio (its payment posted there already): a service line, and a company's folio. */
export const foliosFixtures: ModuleFixtures = {
  needs: ['booking'],
  records: {
    folio: { fields: ['folio_id'] },
    folio_line: { paths: ['/api/hotels/:slug/bookings/:id/folio/lines/:lineId'], fields: ['corrects_line_id'] },
  },
  requests: {
    body: {
      'POST /api/hotels/:slug/bookings/:id/folio/lines': {
        base: (_r, n) => service(n),
        variants: {
          folio_id: (r, n) => ({ ...service(n), folio_id: r.folio }),
          corrects_line_id: (r, n) => ({ ...service(n), kind: 'correction', corrects_line_id: r.folio_line }),
        },
        control: true,
      },
      // The seeded line goes to the company's folio once; again, it is there already (409).
      'POST /api/hotels/:slug/bookings/:id/folio/lines/:lineId/move': {
        base: (r) => ({ folio_id: r.folio }),
        control: true,
      },
      'POST /api/hotels/:slug/bookings/:id/folio/companies': {
        base: (_r, n) => ({ payer_name: `Gate company ${n}`, payer_inn: '7707083893' }),
        control: true,
      },
      // Days long past, later with each call: the hotel's current business date stays its own.
      'POST /api/hotels/:slug/folio-settings/close-day': {
        base: (_r, n) => ({ date: day(n, '2001-01-01') }),
        control: true,
      },
    },
  },
  async seed({ request, records, canary }) {
    const folio = `/bookings/${records.booking}/folio`;
    const line = await request<{ id: string }>(`${folio}/lines`, {
      body: { kind: 'service', amount: '150.50', description: `Transfer ${canary}`, source: `seed-${canary}` },
    });
    const company = await request<{ id: string }>(`${folio}/companies`, {
      body: { payer_name: `Company ${canary}`, payer_inn: '7707083893' },
    });
    await request(`${folio}/settlement`, { body: { decision: 'leave_open', note: `Decision ${canary}` } });
    return { folio: company.id, folio_line: line.id };
  },
};
