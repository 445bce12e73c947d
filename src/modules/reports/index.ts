export type { ReportsService, DailyReport } from './reports.service';
export { mailDailyReport } from './reports.daily-mail';
