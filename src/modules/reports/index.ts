export type { ReportsService, DailyReport } from './reports.service';
