import type { ModuleFixtures } from '../../platform/fixtures';

/** The hotel's settings carry the canary (its SMTP account); rooms are assigned in order. */
export const hotelsFixtures: ModuleFixtures = {
  records: {},
  async seed({ request, canary }) {
    await request('/settings', {
      method: 'patch',
      body: {
        room_assignment_strategy: 'sequential',
        smtp_host: `${canary}.example.test`,
        smtp_port: 587,
        smtp_user: `${canary}-smtp`,
        smtp_password: `${canary}-secret`,
        smtp_from: `${canary}-mail@example.test`,
      },
    });
    return {};
  },
};
