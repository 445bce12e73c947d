import { upcomingOf } from '../../src/modules/timeline/timeline.upcoming';
import type { TimelineDependencies } from '../../src/modules/timeline/timeline.dependencies';
import { sharedReads } from '../../src/modules/timeline/timeline.shared';
import { WorkflowsUnavailable } from '../../src/platform/temporal/workflow-queries';

const bookingId = '00000000-0000-4000-8000-000000000001';
const depositId = '00000000-0000-4000-8000-000000000002';

/** A booking with one open deposit: two workflows to ask. */
const deps = {
  deposits: { ofBooking: async () => ({ deposits: [{ id: depositId, closed_at: null }], refunds: [] }) },
  billing: { onlinePayments: { ofReadBooking: async () => [] } },
} as unknown as TimelineDependencies;

const hotelId = '00000000-0000-4000-8000-000000000003';
const request = {
  hotelId,
  bookingId,
  limit: 200,
  readsAudit: true,
  shared: sharedReads(deps, hotelId, bookingId, 200),
};

describe('what is still to come', () => {
  it('shows the answers that arrived and names the workflow that did not answer in time', async () => {
    const at = '2026-12-01T10:00:00.000Z';
    const ask = async (id: string) => {
      if (id.startsWith('deposit:')) throw new WorkflowsUnavailable('no answer in 1000 ms');
      return [{ step: 'review_invitation' as const, at }];
    };
    const upcoming = await upcomingOf({ ask: ask as never }, request);
    expect(upcoming).toEqual({
      available: true,
      entries: [{ at, kind: 'review_invitation', summary: expect.any(String), actor: expect.any(Object) }],
      unanswered: [`deposit:${depositId}`],
      reason: expect.any(String),
    });
  });

  it('leaves the part out, saying so, when none answers', async () => {
    const ask = async () => {
      throw new WorkflowsUnavailable('down');
    };
    expect(await upcomingOf({ ask }, request)).toEqual({
      available: false,
      reason: expect.any(String),
      entries: [],
    });
  });
});
