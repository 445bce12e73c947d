import type { ScheduleDefinition } from '../src/platform/temporal/schedules';

/** Every recurring job of the service, registered by each worker at start-up. */
export const SCHEDULES: ScheduleDefinition[] = [
  { scheduleId: 'maintenance-sweep', workflowType: 'maintenanceSweep', every: '1 hour' },
];
