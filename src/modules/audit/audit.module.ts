import { defineModule } from '../../platform/modules';
import { auditFixtures } from './audit.fixtures';
import { auditRoutes } from './audit.routes';
import { createAuditService } from './audit.service';

/**
 * The audit log of every change (docs/decisions/audit-log.md): written by the database's triggers from the caller the
 * platform names (mount for a route, the activity boundary for a job); read, filtered and verified here.
 */
export const auditModule = defineModule({
  name: 'audit',
  uses: [],
  create: ({ db }) => createAuditService(db),
  routes: (audit) => auditRoutes(audit),
  fixtures: auditFixtures,
});
