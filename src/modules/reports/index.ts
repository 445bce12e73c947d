export type { ReportsService, DailyReport } from './reports.service';
export { dailyEmailOf } from './reports.daily';
