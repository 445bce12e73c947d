import { randomUUID } from 'node:crypto';
import type { ModuleFixtures } from '../../platform/fixtures';

/** The owner (registration made it) and a housekeeper with a password, named after the canary. */
export const staffFixtures: ModuleFixtures = {
  records: {
    staff: { paths: ['/api/hotels/:slug/users/:id'], fields: ['assignee_id'] },
    owner: { paths: ['/api/hotels/:slug/users/:id'] },
  },
  requests: {
    body: {
      'POST /api/hotels/:slug/users': {
        base: (_r, n) => ({
          name: `Gate member ${n}`,
          email: `gate-${n}-${randomUUID()}@example.test`,
          role: 'technician',
        }),
      },
    },
  },
  async seed({ request, canary, ownerId }) {
    const staff = await request<{ id: string }>('/users', {
      body: {
        name: 'Staff housekeeper',
        email: `${canary}-maid@example.test`,
        role: 'housekeeper',
        password: 'staffpass1',
      },
    });
    await request(`/users/${staff.id}`, {
      method: 'patch',
      body: { name: `Maid ${canary}`, position: `Position ${canary}`, phone: '+7 900 000-00-01' },
    });
    return { owner: ownerId, staff: staff.id };
  },
};
