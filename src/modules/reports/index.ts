export type { ReportsService, DailyReport } from './reports.service';
export type { Performance } from './reports.types';
export { mailDailyReport } from './reports.daily-mail';
