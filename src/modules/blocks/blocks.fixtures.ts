import { day, type ModuleFixtures } from '../../platform/fixtures';

/** Nights far after every stay the gates book, so the seeded block's held unit never refuses one of them. */
const FIRST = '2035-03-01';
const NIGHTS = 731;
const LAST = day(NIGHTS - 1, FIRST);
const allotment = (category: string) => [{ category_id: category, from: FIRST, to: LAST, rooms: 1 }];
/**
 * A stay of one night of the seeded block, one per call: the block's nights taken in turn (a sweep's successful
 * pickups are its few controls, run one after another, so they never meet on a night).
 */
const stay = (category: string, n: number) => ({
  category_id: category,
  check_in: day(n % NIGHTS, FIRST),
  check_out: day((n % NIGHTS) + 1, FIRST),
  guest_last_name: 'Gate',
  guest_first_name: `Pickup ${n}`,
});

/** A definite block holding one unit of the seeded category a night for two years, priced by the seeded tariff. */
export const blocksFixtures: ModuleFixtures = {
  needs: ['category', 'room', 'tariff'],
  records: { block: { paths: ['/api/hotels/:slug/blocks/:id'] } },
  requests: {
    body: {
      // An inquiry holds nothing: each call is a new block, never short of rooms.
      'POST /api/hotels/:slug/blocks': {
        base: (r, n) => ({ name: `Gate ${n}`, tariff_id: r.tariff, allotment: allotment(r.category) }),
        variants: { 'allotment[].category_id': (r, n) => ({ name: `Gate ${n}`, allotment: allotment(r.category) }) },
        control: true,
      },
      'PATCH /api/hotels/:slug/blocks/:id': {
        base: (r) => ({ tariff_id: r.tariff, allotment: allotment(r.category) }),
        variants: {
          'allotment[].category_id': (r) => ({ allotment: allotment(r.category) }),
          tariff_id: (r) => ({ tariff_id: r.tariff }),
        },
        control: true,
      },
      // One unit off a night of its own, never one a pickup of the sweep took.
      'POST /api/hotels/:slug/blocks/:id/wash': {
        base: (r, n) => ({
          items: [{ category_id: r.category, from: day(n % NIGHTS, FIRST), to: day(n % NIGHTS, FIRST), rooms: 1 }],
        }),
        control: true,
      },
      'POST /api/hotels/:slug/blocks/:id/pickup': {
        base: (r, n) => ({ guests: [stay(r.category, n)] }),
        variants: {
          'guests[].category_id': (r, n) => ({ guests: [stay(r.category, n)] }),
          'guests[].room_id': (r, n) => ({ guests: [{ ...stay(r.category, n), room_id: r.room }] }),
        },
        control: true,
      },
    },
  },
  async seed({ request, canary, records }) {
    const block = await request<{ id: string }>('/blocks', {
      body: {
        name: `Block ${canary}`,
        company: `Company ${canary}`,
        contact_name: `Contact ${canary}`,
        contact_email: `${canary}-block@example.test`,
        notes: `Block notes ${canary}`,
        status: 'definite',
        tariff_id: records.tariff,
        allotment: allotment(records.category),
      },
    });
    return { block: block.id };
  },
};
