export { createHousekeepingService, type HousekeepingService } from './housekeeping.service';
export { createChecklistTemplates, type ChecklistTemplates } from './housekeeping.templates';
export { housekeepingRoutes } from './housekeeping.routes';
export type { HousekeepingTask } from './housekeeping.types';
export { housekeepingSettingsRepository } from './housekeeping.repository';
