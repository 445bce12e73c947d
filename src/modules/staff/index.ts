export type { StaffService } from './staff.service';
