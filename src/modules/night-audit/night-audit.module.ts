import { defineModule } from '../../platform/modules';
import { nightAuditActivities } from './night-audit.activities';
import { nightAuditFixtures } from './night-audit.fixtures';
import { auditSettingsRepository } from './night-audit.repository';
import { nightAuditRoutes } from './night-audit.routes';
import { createNightAuditService, type NightAuditDependencies } from './night-audit.service';

/**
 * The night audit (docs/decisions/night-audit.md): closes each hotel's business day by a workflow its own Temporal
 * schedule starts at a local hour (or staff start by hand), through the services of the areas it touches.
 */
export const nightAuditModule = defineModule({
  name: 'nightAudit',
  fixtures: nightAuditFixtures,
  uses: ['hotels', 'bookings', 'housekeeping', 'folios', 'notifications', 'reports'],
  create: ({ db }, deps: NightAuditDependencies) => createNightAuditService(db, deps),
  routes: (audit) => nightAuditRoutes(audit),
  activities: (audit, context, deps) => nightAuditActivities(audit, context, deps),
  onHotelCreated: (_audit, trx, hotelId) => auditSettingsRepository.insertDefaults(trx, hotelId),
});
