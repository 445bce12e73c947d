import type { ModuleFixtures } from '../../platform/fixtures';

/**
 * The log's filters name records of any kind and actors: the sweep aims another hotel's booking and owner at them
 * (answered with none of that hotel's entries). The log itself is seeded by every other seed's requests.
 */
export const auditFixtures: ModuleFixtures = {
  needs: ['booking'],
  records: {
    audited_record: { fields: ['GET /api/hotels/:slug/audit resource_id'] },
    audit_actor: { fields: ['GET /api/hotels/:slug/audit actor_id'] },
  },
  async seed({ records, ownerId }) {
    return { audited_record: records.booking, audit_actor: ownerId };
  },
};
