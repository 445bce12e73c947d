export type { HousekeepingService } from './housekeeping.service';
export type { HousekeepingTask } from './housekeeping.types';
