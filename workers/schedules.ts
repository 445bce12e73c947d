import type { ScheduleDefinition } from '../src/platform/temporal/schedules';

/** Every recurring job of the service, registered by each worker at start-up. */
export const SCHEDULES: ScheduleDefinition[] = [
  { scheduleId: 'maintenance-sweep', workflowType: 'maintenanceSweep', every: '1 hour' },
  { scheduleId: 'no-show-sweep', workflowType: 'noShowSweep', every: '10 minutes' },
  { scheduleId: 'auto-checkout-sweep', workflowType: 'autoCheckoutSweep', every: '10 minutes' },
];
